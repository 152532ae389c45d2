import Foundation
import Testing
import TrigsimTestSupport

@testable import TrigsimCore

/// The calendar the phone is set to (`PhoneCalendar`): calendar triggers'
/// date components are read in it, and the app's calendar is it.
@Suite struct PhoneCalendarTests {
  static func next(_ components: CalendarComponents, on phone: PhoneCalendar, after: String = "2026-05-04T07:00:00Z") -> SimulationInstant? {
    let evaluator = CalendarTriggerEvaluator(dstGapPolicy: .nextTimePreservingSmallerComponents, repeatedTimePolicy: .first, calendar: phone)
    return evaluator.nextDelivery(
      of: CalendarTrigger(components: components, repeats: true), after: Build.instant(after), deviceTimeZone: Build.zone("UTC"))
  }

  @Test func aDailyTimeFiresAtTheSameInstantOnEveryPhoneCalendar() {
    for phone in PhoneCalendar.allCases {
      #expect(Self.next(CalendarComponents(hour: 8, minute: 30), on: phone) == Build.instant("2026-05-04T08:30:00Z"), "\(phone)")
    }
  }

  @Test func aYearlyTriggerOnTheFirstOfTheYearIsRoshHashanahOnAHebrewPhone() {
    // 1 Tishrei 5787 (Rosh Hashanah) is Saturday 12 September 2026; Foundation numbers Tishrei 1.
    let newYear = CalendarComponents(month: 1, day: 1, hour: 9, minute: 0)
    #expect(Self.next(newYear, on: .hebrew) == Build.instant("2026-09-12T09:00:00Z"))
    #expect(Self.next(newYear, on: .gregorian) == Build.instant("2027-01-01T09:00:00Z"))
  }

  @Test func aFullDateIsReadInTheBuddhistEraOnABuddhistPhone() {
    // Buddhist era year = Gregorian year + 543: 2569 is 2026.
    let date = CalendarComponents(year: 2569, month: 5, day: 4, hour: 9, minute: 0)
    #expect(Self.next(date, on: .buddhist) == Build.instant("2026-05-04T09:00:00Z"))
    #expect(Self.next(CalendarComponents(year: 2026, month: 5, day: 4, hour: 9, minute: 0), on: .buddhist) == nil, "2026 BE has passed")
  }

  @Test func aMonthlyTriggerFollowsTheHebrewMonths() throws {
    // 1 Sivan 5786 is Sunday 17 May 2026, the first month to begin after 4 May 2026.
    let monthly = CalendarComponents(day: 1, hour: 9, minute: 0)
    #expect(Self.next(monthly, on: .hebrew) == Build.instant("2026-05-17T09:00:00Z"))
    #expect(Self.next(monthly, on: .gregorian) == Build.instant("2026-06-01T09:00:00Z"))
  }

  @Test func theAppsCalendarIsThePhonesAndATriggerItAddsFiresOnThatCalendarsDate() throws {
    let log = AppLog()
    var script = AppScript()
    script.launched = { app, _ in
      let calendar = app.device.clock.calendar
      let year = calendar.component(.year, from: app.device.clock.now)
      app.log.add("calendar \(calendar.identifier) year \(year) phone \(app.device.clock.phoneCalendar.rawValue)")
      let trigger = CalendarTrigger(components: CalendarComponents(year: year, month: 5, day: 4, hour: 9, minute: 0), repeats: false)
      await app.add(NotificationRequest(id: "dated", title: "Dated", trigger: .calendar(trigger)))
    }
    var scenario = HostedScenario.make()
    scenario.platform.calendar = .buddhist
    let report = try Simulation(scenario, app: ScriptedApp.hosted(script, log: log)).report()
    #expect(log.all.contains("calendar buddhist year 2569 phone buddhist"))
    #expect(report.timeline.entries.filter { $0.kind == .fired }.map(\.instant) == [Build.instant("2026-05-04T09:00:00Z")])
    #expect(report.timeline.header.first { $0.key == "platform" }?.value.contains(" calendar=buddhist ") == true)
  }
}
