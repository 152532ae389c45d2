import Foundation

/// The times of a dose as a reader reads them beside the dose's label.
///
/// A dose is labelled (its reminder time and day, `levo 13:00 2026-05-06`)
/// in the zone its prescription reads the daily time in: the device's zone
/// in force at the dose's time, or the fixed zone of `prescription: { at:
/// home }`. Every other time printed for the dose (when it was notified or
/// resolved, an instant in a remark) is the phone's clock time, in the
/// device zone in force at that instant, as the timeline writes it. When
/// that zone's UTC offset differs from the label's (after travel, or with a
/// home-zone prescription abroad), the time carries its offset, `18:45+02:00`,
/// so that it cannot be read as a time in the label's zone; otherwise it is
/// the bare clock time, `07:30`.
extension DoseRecord {
  /// The UTC offset of the zone the dose is labelled in.
  public func labelOffset(in clock: ClockSettings?) -> Int {
    fixedLabelOffsetSeconds ?? clock?.utcOffset(at: scheduled) ?? 0
  }
}

extension ZonedInstant {
  /// `07:30`, `2026-05-06 07:30` when its local date is not `day`, and
  /// `18:45+02:00` (`2026-05-06 18:45+02:00`) when its offset is not
  /// `labelOffset`: a time read beside a label in another zone carries its offset.
  public func doseTime(day: String?, labelOffset: Int) -> String {
    let (date, time) = local
    let offset = utcOffsetSeconds == labelOffset ? "" : InstantFormatter.offsetText(utcOffsetSeconds)
    return (date == day ? "" : "\(date) ") + time + offset
  }
}

extension InstantFormatter {
  /// `+02:00`, `-04:00`, `+05:45`, `+00:00` (with seconds when the offset has them: `+00:09:21`).
  public static func offsetText(_ offsetSeconds: Int) -> String {
    let text = format(SimulationInstant(millisecondsSinceEpoch: 0), offsetSeconds: offsetSeconds)
    return String(text.dropFirst(23))
  }
}
