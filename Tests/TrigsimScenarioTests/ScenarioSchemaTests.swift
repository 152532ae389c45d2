import Foundation
import Testing
import TrigsimCore
import TrigsimTestSupport
import TrigsimTracks
import Yams

@testable import TrigsimScenario

/// `Sources/TrigsimScenario/Resources/scenario.schema.json` against the loader:
/// every key list the loader accepts is an object of the schema with exactly
/// those keys, each with a type; the enumerated values are the loader's; every
/// bundled scenario names the schema on its first line and validates.
@Suite struct ScenarioSchemaTests {
  static let schemaPath = "Sources/TrigsimScenario/Resources/scenario.schema.json"

  static let schema: SchemaValue = {
    let data = try! Data(contentsOf: RepositoryPaths.root.appendingPathComponent(schemaPath))
    return try! JSONDecoder().decode(SchemaValue.self, from: data)
  }()

  static var validator: SchemaSubsetValidator { SchemaSubsetValidator(root: schema) }

  /// Every `.yaml` under `scenarios/` (the corpus included), relative to it, sorted.
  static let scenarioFiles = RepositoryPaths.bundledScenarioFiles

  /// The schema object a JSON pointer (`/properties/clock`) names.
  static func schemaObject(_ pointer: String) -> [String: SchemaValue]? {
    validator.resolve("#" + pointer)?.objectMembers
  }

  /// Whether a property's schema constrains its type: `type` or `enum`, or a
  /// `$ref`, `anyOf` or `oneOf` whose targets all do.
  static func isTyped(_ schema: SchemaValue) -> Bool {
    guard let rules = schema.objectMembers else { return false }
    if rules["type"] != nil || rules["enum"] != nil { return true }
    if case .string(let reference)? = rules["$ref"], let target = validator.resolve(reference) { return isTyped(target) }
    for keyword in ["anyOf", "oneOf"] {
      if case .array(let branches)? = rules[keyword] { return !branches.isEmpty && branches.allSatisfy(isTyped) }
    }
    return false
  }

  /// The keys of an object schema, its untyped keys, and whether it refuses other keys.
  static func shape(_ pointer: String) -> (keys: Set<String>, untyped: [String], closed: Bool)? {
    guard let object = schemaObject(pointer), let properties = object["properties"]?.objectMembers else { return nil }
    let untyped = properties.keys.sorted().filter { !isTyped(properties[$0]!) }
    return (Set(properties.keys), untyped, object["additionalProperties"] == .bool(false))
  }

  // MARK: - The loader's key lists

  /// The loader's named key lists, as a `keys:` argument spells them in the sources.
  static let namedKeyLists: [String: [String]] = [
    "scenarioKeys": scenarioKeys,
    "limitKeys": limitKeys,
    "Self.medicineKeys": ScenarioReader.medicineKeys,
    "Self.editKeys": ScenarioReader.editKeys,
    "Self.appChangeKeys": ScenarioReader.appChangeKeys,
    "Self.policyKeys": ScenarioReader.policyKeys,
    "Self.expectKeys": ScenarioReader.expectKeys,
    "Self.trialKeys": ScenarioReader.trialKeys,
    "Self.deviceKeys": ScenarioReader.deviceKeys,
    "Self.notificationSettingKeys": ScenarioReader.notificationSettingKeys,
    "Self.focusKeys": ScenarioReader.focusKeys,
    "Self.pushesKeys": ScenarioReader.pushesKeys,
    "Self.pushKeys": ScenarioReader.pushKeys,
    "Self.locationRuleKeys": ScenarioReader.locationRuleKeys,
    "Self.androidGeofencingKeys": ScenarioReader.androidGeofencingKeys,
    "Self.attentionRuleKeys": ScenarioReader.attentionRuleKeys,
    "Self.patientKeys": ScenarioReader.patientKeys,
    "Self.dayKeys": ScenarioReader.dayKeys,
    "Self.androidDozeKeys": ScenarioReader.androidDozeKeys,
    "Self.androidBucketDecayKeys": ScenarioReader.androidBucketDecayKeys,
    "Self.androidKeys": ScenarioReader.androidKeys,
    "Self.androidPolicyKeys": ScenarioReader.androidPolicyKeys,
    "Self.androidFCMKeys": ScenarioReader.androidFCMKeys,
    "Self.androidWorkKeys": ScenarioReader.androidWorkKeys,
    "Self.serverKeys": ScenarioReader.serverKeys,
    "Self.serverStepKeys": ScenarioReader.serverStepKeys,
    "Self.serverPushKeys": ScenarioReader.serverPushKeys,
    "Self.serverSMSKeys": ScenarioReader.serverSMSKeys,
    "Self.serverEmailKeys": ScenarioReader.serverEmailKeys,
    "Self.serverInboxKeys": ScenarioReader.serverInboxKeys,
    "Self.serverDeviceKeys": ScenarioReader.serverDeviceKeys,
    "Self.serverChangeKeys": ScenarioReader.serverChangeKeys,
    "Self.serverChannelKeys": ScenarioReader.serverChannelKeys,
    "Self.dosesReachedKeys": ScenarioReader.dosesReachedKeys,
    "CSVField.allCases.map(\\.rawValue)": CSVField.allCases.map(\.rawValue),
  ]

  /// Where each named key list is in the schema.
  static let keyListPlaces: [(pointer: String, keys: [String])] = [
    ("", scenarioKeys),
    ("/properties/limits", limitKeys),
    ("/properties/medicines/items", ScenarioReader.medicineKeys),
    ("/properties/medicines/items/properties/edits/items", ScenarioReader.editKeys),
    ("/properties/app/items", ["at"] + ScenarioReader.appChangeKeys),
    ("/properties/policy", ScenarioReader.policyKeys),
    ("/properties/expect/anyOf/1", ScenarioReader.expectKeys),
    ("/properties/trials", ScenarioReader.trialKeys),
    ("/properties/device", ScenarioReader.deviceKeys),
    ("/properties/device/properties/settings/items", ["at"] + ScenarioReader.notificationSettingKeys),
    ("/properties/device/properties/focus/items", ScenarioReader.focusKeys),
    ("/properties/pushes", ScenarioReader.pushesKeys),
    ("/properties/pushes/properties/send/items", ScenarioReader.pushKeys),
    ("/definitions/locationProfile/anyOf/1", ["profile"] + ScenarioReader.locationRuleKeys),
    ("/definitions/androidGeofencing", ScenarioReader.androidGeofencingKeys),
    ("/properties/track/properties/columns", CSVField.allCases.map(\.rawValue)),
    ("/definitions/androidAlarms", ScenarioReader.androidAlarmKeys),
    ("/definitions/androidAlarms/properties/doze/anyOf/1", ScenarioReader.androidDozeKeys),
    ("/definitions/androidAlarms/properties/bucketDecay", ScenarioReader.androidBucketDecayKeys),
    ("/definitions/android", ScenarioReader.androidKeys),
    ("/definitions/androidWork", ScenarioReader.androidWorkKeys),
    ("/properties/policy/properties/android", ScenarioReader.androidPolicyKeys),
    ("/definitions/android/properties/fcm", ScenarioReader.androidFCMKeys),
    ("/properties/server", ScenarioReader.serverKeys),
    ("/properties/server/properties/policy/items", ScenarioReader.serverStepKeys),
    ("/properties/server/properties/push", ScenarioReader.serverPushKeys),
    ("/properties/server/properties/sms", ScenarioReader.serverSMSKeys),
    ("/properties/server/properties/email", ScenarioReader.serverEmailKeys),
    ("/properties/server/properties/inbox", ScenarioReader.serverInboxKeys),
    ("/properties/server/properties/devices/items", ScenarioReader.serverDeviceKeys),
    ("/properties/server/properties/changes/items", ScenarioReader.serverChangeKeys),
    ("/definitions/serverChannelSwitches", ScenarioReader.serverChannelKeys),
    ("/definitions/serverQuietHours", ScenarioReader.serverChannelKeys),
  ]

  @Test(arguments: keyListPlaces.map(\.pointer))
  func eachNamedKeyListIsAClosedObjectWithATypePerKey(_ pointer: String) throws {
    let keys = try #require(Self.keyListPlaces.first { $0.pointer == pointer }).keys
    let shape = try #require(Self.shape(pointer), "no object schema at '\(pointer)'")
    #expect(shape.keys == Set(keys), "schema at '\(pointer)' has keys \(shape.keys.sorted()), the loader \(keys.sorted())")
    #expect(shape.untyped == [])
    #expect(shape.closed)
  }

  @Test func thePlatformSchemaHoldsTheAttentionRules() throws {
    let shape = try #require(Self.shape("/properties/platform/anyOf/1"))
    #expect(Set(ScenarioReader.attentionRuleKeys).isSubset(of: shape.keys))
    #expect(shape.keys.contains("location") && shape.keys.contains("pendingLimit"))
  }

  @Test func eachAssertionNameIsOneBranchOfTheAssertionSchema() throws {
    let object = try #require(Self.schemaObject("/properties/assert/items"))
    guard case .array(let branches)? = object["oneOf"] else {
      Issue.record("'assert' items have no oneOf")
      return
    }
    let names = branches.compactMap { $0.objectMembers?["properties"]?.objectMembers?.keys.sorted() }
    #expect(names.allSatisfy { $0.count == 1 })
    #expect(names.map { $0[0] } == ScenarioReader.assertionNames)
    for (index, branch) in branches.enumerated() {
      let members = try #require(branch.objectMembers?["properties"]?.objectMembers)
      #expect(members.values.allSatisfy(Self.isTyped), "assertion branch \(index) has an untyped parameter")
    }
  }

  /// The `keys:` argument of every `document.mapping(...)` call in the loader's sources.
  static func mappingKeyArguments() throws -> [(file: String, expression: String)] {
    let folder = RepositoryPaths.root.appendingPathComponent("Sources/TrigsimScenario")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
    var found: [(String, String)] = []
    for file in files {
      let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
      var rest = text[...]
      while let call = rest.range(of: "document.mapping(") {
        rest = rest[call.upperBound...]
        guard let keys = rest.range(of: "keys:") else { break }
        // The argument runs to the call's closing parenthesis.
        var depth = 0
        var end = keys.upperBound
        while end < rest.endIndex {
          let character = rest[end]
          if character == "(" || character == "[" { depth += 1 }
          if character == "]" { depth -= 1 }
          if character == ")" {
            if depth == 0 { break }
            depth -= 1
          }
          end = rest.index(after: end)
        }
        found.append((file, rest[keys.upperBound..<end].trimmingCharacters(in: .whitespacesAndNewlines)))
        rest = rest[end...]
      }
    }
    return found
  }

  /// The keys a `keys:` argument names: literal lists and named lists joined by `+`.
  static func keys(of expression: String) -> [String]? {
    var keys: [String] = []
    for term in expression.split(separator: "+").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) {
      if term.hasPrefix("[") {
        keys += term.matches(of: /"([^"]*)"/).map { String($0.output.1) }
      } else if let named = namedKeyLists[term] {
        keys += named
      } else {
        return nil
      }
    }
    return keys
  }

  /// The property names of every object schema in the schema.
  static func objectKeySets(in node: SchemaValue) -> [Set<String>] {
    switch node {
    case .object(let members):
      var sets: [Set<String>] = []
      if let properties = members["properties"]?.objectMembers { sets.append(Set(properties.keys)) }
      for key in members.keys.sorted() { sets += objectKeySets(in: members[key]!) }
      return sets
    case .array(let items): return items.flatMap(objectKeySets)
    default: return []
    }
  }

  @Test func everyMappingTheLoaderReadsIsAnObjectOfTheSchema() throws {
    let calls = try Self.mappingKeyArguments()
    #expect(calls.count == 80)
    let schemaSets = Self.objectKeySets(in: Self.schema)
    for call in calls {
      guard let keys = Self.keys(of: call.expression) else {
        Issue.record("\(call.file): keys '\(call.expression)' cannot be read; add the list to ScenarioSchemaTests.namedKeyLists")
        continue
      }
      let inSchema = schemaSets.contains(Set(keys))
      #expect(inSchema, "\(call.file): no object in the schema has exactly the keys \(keys)")
    }
  }

  @Test func everyPropertyOfTheSchemaHasAType() {
    var untyped: [String] = []
    func walk(_ node: SchemaValue, _ path: String) {
      switch node {
      case .object(let members):
        if let properties = members["properties"]?.objectMembers {
          for key in properties.keys.sorted() where !Self.isTyped(properties[key]!) { untyped.append("\(path)/properties/\(key)") }
        }
        for key in members.keys.sorted() { walk(members[key]!, "\(path)/\(key)") }
      case .array(let items):
        for (index, item) in items.enumerated() { walk(item, "\(path)/\(index)") }
      default: break
      }
    }
    walk(Self.schema, "")
    #expect(untyped == [])
  }

  // MARK: - Enumerated values

  static let enumerations: [(pointer: String, values: [String])] = [
    ("/properties/platform/anyOf/1/properties/retention", PendingRetentionPolicy.allCases.map(\.rawValue)),
    ("/properties/platform/anyOf/1/properties/dstGap", DSTGapPolicy.allCases.map(\.rawValue)),
    ("/properties/platform/anyOf/1/properties/repeatedTime", RepeatedTimeChoice.allCases.map(\.rawValue)),
    ("/properties/platform/anyOf/1/properties/impossibleDate", ImpossibleDatePolicy.allCases.map(\.rawValue)),
    ("/properties/platform/anyOf/1/properties/terminatedActions", TerminatedActionDelivery.allCases.map(\.rawValue)),
    ("/definitions/interruptionLevel", InterruptionLevel.allCases.map(\.rawValue)),
    ("/definitions/snooze/anyOf/1/properties/schedule", ChainScheduling.allCases.map(\.rawValue)),
    ("/properties/device/properties/settings/items/properties/previews", PreviewSetting.allCases.map(\.rawValue)),
    ("/properties/device/properties/power/items/properties/event", PowerEvent.Kind.allCases.map(\.rawValue)),
    ("/properties/device/properties/focus/items/properties/days/items", ScenarioReader.weekdayNames),
    ("/properties/pushes/properties/filter", AppPreferenceFilter.allCases.map(\.rawValue)),
    ("/properties/policy/properties/addOrder", AddOrder.allCases.map(\.rawValue)),
    ("/properties/policy/properties/snooze/properties/trigger", SnoozeTrigger.allCases.map(\.rawValue)),
    ("/properties/policy/properties/handler", HandlerCompletion.allCases.map(\.rawValue)),
    ("/properties/policy/properties/reAddChains/properties/foreground", ChainReAddScope.allCases.map(\.rawValue)),
    ("/properties/policy/properties/reAddChains/properties/action", ChainReAddScope.allCases.map(\.rawValue)),
    ("/properties/policy/properties/reAddChains/properties/willPresent", ChainReAddScope.allCases.map(\.rawValue)),
    ("/properties/policy/properties/reAddChains/properties/backgroundRefresh", ChainReAddScope.allCases.map(\.rawValue)),
    ("/properties/policy/properties/reAddChains/properties/silentPush", ChainReAddScope.allCases.map(\.rawValue)),
    ("/properties/badge", BadgePolicy.allCases.map(\.rawValue)),
    ("/properties/app/items/properties/state", AppState.allCases.map(\.rawValue)),
    ("/properties/app/items/properties/permission", ScenarioReader.permissionChoices.map(\.0)),
    ("/properties/app/items/properties/location", LocationAuthorization.allCases.map(\.rawValue)),
    ("/properties/app/items/properties/locationAccuracy", LocationAccuracyAuthorization.allCases.map(\.rawValue)),
    ("/properties/expect/anyOf/1/properties/ignoreKinds/items", TimelineEntry.Kind.allCases.map(\.rawValue)),
    ("/definitions/androidAlarms/properties/install", AndroidInstall.allCases.map(\.rawValue)),
    ("/definitions/androidAlarms/properties/exactAlarms", ExactAlarmPermission.allCases.map(\.rawValue)),
    ("/definitions/androidAlarms/properties/inexactTiming", InexactAlarmTiming.allCases.map(\.rawValue)),
    ("/definitions/androidAlarms/properties/standbyBucket", StandbyBucket.allCases.map(\.rawValue)),
    ("/definitions/androidAlarms/properties/bucketLimits", BucketAlarmLimitScope.allCases.map(\.rawValue)),
    ("/definitions/androidAlarms/properties/batterySaverAlarms", BatterySaverAlarms.allCases.map(\.rawValue)),
  ]

  @Test(arguments: enumerations.map(\.pointer))
  func eachEnumerationListsTheLoadersChoicesInItsOrder(_ pointer: String) throws {
    let expected = try #require(Self.enumerations.first { $0.pointer == pointer }).values
    let object = try #require(Self.schemaObject(pointer), "no schema at '\(pointer)'")
    guard case .array(let values)? = object["enum"] else {
      Issue.record("no enum at '\(pointer)'")
      return
    }
    #expect(values == expected.map(SchemaValue.string))
  }

  // MARK: - Bundled scenarios

  @Test func everyBundledScenarioIsChecked() {
    #expect(Self.scenarioFiles.count == 98)
    #expect(Self.scenarioFiles.filter { $0.hasPrefix("calibration/") }.count == 3)
    #expect(Self.scenarioFiles.filter { $0.hasPrefix("corpus/") }.count == 23)
  }

  @Test(arguments: scenarioFiles)
  func theFirstLineNamesTheSchemaByItsRelativePath(_ file: String) throws {
    let text = try String(contentsOf: RepositoryPaths.scenarios.appendingPathComponent(file), encoding: .utf8)
    let upward = String(repeating: "../", count: file.split(separator: "/").count)
    let expected = "# yaml-language-server: $schema=\(upward)\(Self.schemaPath)"
    #expect(text.split(separator: "\n", maxSplits: 1).first.map(String.init) == expected)
    let named = RepositoryPaths.scenarios.appendingPathComponent(file).deletingLastPathComponent()
      .appendingPathComponent(upward + Self.schemaPath).standardizedFileURL
    #expect(FileManager.default.fileExists(atPath: named.path))
  }

  @Test(arguments: scenarioFiles)
  func theScenarioValidatesAgainstTheSchema(_ file: String) throws {
    let text = try String(contentsOf: RepositoryPaths.scenarios.appendingPathComponent(file), encoding: .utf8)
    let node = try #require(try Yams.compose(yaml: text))
    #expect(Self.validator.problems(of: SchemaValue(yaml: node)) == [])
  }

  // MARK: - The validator fails what it should

  @Test func aScenarioWithMistakesHasEachReported() throws {
    let yaml = """
      trigsim: 1
      clock: { start: 2026-03-28T06:00:00, end: 2026-03-28T12:00:00, zone: Europe/Copenhagen }
      platform: { pendingLimit: many, retention: newest }
      regions: [{ center: [55.68, 12.57, 3] }]
      device: { settings: [{ at: 2026-03-28T07:00:00, sounds: off }], network: [{ at: 2026-03-28T07:00:00, online: perhaps }] }
      assert: [{ pendingPeak: { atMost: 3 } }, { pendingPeak: { atMost: 3 }, count: { fired: x } }]
      """
    let node = try #require(try Yams.compose(yaml: yaml))
    #expect(Self.validator.problems(of: SchemaValue(yaml: node)) == [
      "$.assert[1]: matches 0 of the 18 branches of oneOf",
      "$.clock: unknown key 'zone'",
      "$.device.network[0].online: matches none of anyOf: $.device.network[0].online: 'perhaps' is not of type 'boolean' | $.device.network[0].online: 'perhaps' is not one of 'yes', 'no'",
      // `platform:` is a phone's name or a mapping: the validator names each branch's first problem.
      "$.platform: matches none of anyOf: $.platform: an object is not of type 'string' | $.platform.pendingLimit: 'many' is not of type 'integer'",
      "$.regions[0].center: more than 2 items",
      // A region is inline (it needs an id) or a GeoJSON file.
      "$.regions[0]: matches none of anyOf: $.regions[0]: missing required key 'id' | $.regions[0]: missing required key 'file'",
    ])
  }

  @Test func plainScalarsAreReadByTheYAML12CoreSchema() {
    #expect(SchemaValue.coreSchemaValue("off") == .string("off"))
    #expect(SchemaValue.coreSchemaValue("yes") == .string("yes"))
    #expect(SchemaValue.coreSchemaValue("08:00") == .string("08:00"))
    #expect(SchemaValue.coreSchemaValue("2026-03-28T09:00:00") == .string("2026-03-28T09:00:00"))
    #expect(SchemaValue.coreSchemaValue("True") == .bool(true))
    #expect(SchemaValue.coreSchemaValue("-12") == .integer(-12))
    #expect(SchemaValue.coreSchemaValue("0x1F") == .integer(31))
    #expect(SchemaValue.coreSchemaValue("55.68") == .number(55.68))
    #expect(SchemaValue.coreSchemaValue("1e3") == .number(1000))
    #expect(SchemaValue.coreSchemaValue("~") == .null)
  }

  @Test func aKeywordOutsideTheSubsetIsReported() {
    let validator = SchemaSubsetValidator(root: .object(["type": .string("string"), "pattern": .string("^a")]))
    #expect(validator.problems(of: .string("b")) == ["$: unsupported schema keyword 'pattern'"])
  }
}
