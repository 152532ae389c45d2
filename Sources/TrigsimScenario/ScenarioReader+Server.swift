import TrigsimCore
import Yams

/// `server:`: the app's reminder server, its escalation policy, channel
/// models, the patient's channel settings, the devices registered for
/// pushes and what changes over the run (`ServerSettings`; the manual, "Server side").
extension ScenarioReader {
  static let serverKeys = ["policy", "push", "sms", "email", "inbox", "channels", "quietHours", "devices", "changes"]
  static let serverStepKeys = ["channel", "after", "if"]
  static let serverPushKeys = ["unregisteredAfter"]
  static let serverSMSKeys = ["verified", "latency", "latencySpread", "failureRate", "carrierStorage"]
  static let serverEmailKeys = ["latency", "latencySpread", "failureRate", "reads", "meanReadDelay"]
  static let serverInboxKeys = ["pollInterval", "fetchOnOpen"]
  static let serverDeviceKeys = ["id", "platform", "signedIn", "seenAfter"]
  static let serverChannelKeys = DeliveryChannel.allCases.map(\.rawValue)
  static let serverChangeKeys = ["at", "channels", "quietHours", "signIn", "signOut", "refreshToken", "deleteApp", "smsNumber"]

  func readServer(_ node: Node) -> ServerSettings {
    var server = ServerSettings()
    server.origin = document.location(node)
    guard let fields = document.mapping(node, what: "'server'", keys: Self.serverKeys) else { return server }
    if let policy = fields["policy"] {
      server.policy = readServerPolicy(policy)
    } else {
      document.error(node, "a server needs a 'policy': the steps it sends for each dose",
                     notes: ["e.g. 'policy: [ { channel: push }, { channel: sms, after: 30m } ]'"])
    }
    if let node = fields["push"], let push = document.mapping(node, what: "'push'", keys: Self.serverPushKeys) {
      if let value = serverSpan(push, "unregisteredAfter", allowZero: true) { server.push.unregisteredAfter = value }
    }
    if let node = fields["sms"], let sms = document.mapping(node, what: "'sms'", keys: Self.serverSMSKeys) {
      if let value = sms["verified"].flatMap({ document.bool($0, what: "verified") }) { server.sms.numberVerified = value }
      if let value = serverSpan(sms, "latency", allowZero: true) { server.sms.latency = value }
      if let value = serverSpan(sms, "latencySpread", allowZero: true) { server.sms.latencySpread = value }
      if let value = serverRate(sms, "failureRate") { server.sms.failureRate = value }
      if let value = serverSpan(sms, "carrierStorage", allowZero: false) { server.sms.carrierStorage = value }
    }
    if let node = fields["email"], let email = document.mapping(node, what: "'email'", keys: Self.serverEmailKeys) {
      if let value = serverSpan(email, "latency", allowZero: true) { server.email.latency = value }
      if let value = serverSpan(email, "latencySpread", allowZero: true) { server.email.latencySpread = value }
      if let value = serverRate(email, "failureRate") { server.email.failureRate = value }
      if let value = serverSpan(email, "meanReadDelay", allowZero: false) { server.email.meanReadDelay = value }
      if let reads = email["reads"], let items = document.sequence(reads, what: "'reads'", example: "reads: [\"07:30\", \"20:00\"]") {
        server.email.reads = items.compactMap { dailyTime($0, what: "mail reading time") }
      }
    }
    if let node = fields["inbox"], let inbox = document.mapping(node, what: "'inbox'", keys: Self.serverInboxKeys) {
      if let value = serverSpan(inbox, "pollInterval", allowZero: false) { server.inbox.pollInterval = value }
      if let value = inbox["fetchOnOpen"].flatMap({ document.bool($0, what: "fetchOnOpen") }) { server.inbox.fetchOnOpen = value }
    }
    if let node = fields["channels"] {
      for (channel, on) in readChannelSwitches(node) where !on { server.preferences.off.insert(channel) }
    }
    if let node = fields["quietHours"] {
      for (channel, hours) in readChannelQuietHours(node) { server.preferences.quietHours[channel] = hours }
    }
    if let node = fields["devices"] { server.devices = readServerDevices(node) }
    if let node = fields["changes"] { server.changes = readServerChanges(node, devices: server.devices) }
    serverRead = server
    return server
  }

  /// `[ { channel: push }, { channel: sms, after: 30m }, { channel: email, if: push-failed } ]`.
  private func readServerPolicy(_ node: Node) -> [EscalationStep] {
    guard let items = document.sequence(node, what: "'policy'", example: "policy: [ { channel: push }, { channel: sms, after: 30m } ]") else { return [] }
    if items.isEmpty {
      document.error(node, "the policy has no step", notes: ["e.g. 'policy: [ { channel: push } ]'"])
    }
    var steps: [EscalationStep] = []
    for item in items {
      guard let fields = document.mapping(item, what: "a policy step", keys: Self.serverStepKeys) else { continue }
      guard let channelNode = fields["channel"] else {
        document.error(item, "a policy step needs a 'channel'", notes: ["one of: \(DeliveryChannel.allCases.map(\.rawValue).joined(separator: ", "))"])
        continue
      }
      guard let channel: DeliveryChannel = choice(fields, "channel", what: "channel") else { continue }
      var step = EscalationStep(channel: channel, origin: document.location(item))
      if fields["after"] != nil {
        // An 'after' refused (too long, negative) is one error: the order of the steps is not checked against it.
        guard let after = serverSpan(fields, "after", allowZero: true) else { continue }
        step.after = after
      }
      if let condition: StepCondition = choice(fields, "if", what: "step condition") { step.condition = condition }
      if let previous = steps.last, step.after < previous.after, let afterNode = fields["after"] ?? Optional(channelNode) {
        document.error(afterNode, "this step's 'after' (\(step.after)) is earlier than the step before it (\(previous.after))",
                       notes: ["steps run in order, each at the dose's due time plus 'after': list them in order of 'after'"])
        continue
      }
      steps.append(step)
    }
    return steps
  }

  /// `{ sms: on, email: off }`, in the order written.
  private func readChannelSwitches(_ node: Node) -> [(DeliveryChannel, Bool)] {
    guard let fields = document.mapping(node, what: "'channels'", keys: Self.serverChannelKeys) else { return [] }
    return DeliveryChannel.allCases.compactMap { channel in
      fields[channel.rawValue].flatMap { onOff($0, what: channel.rawValue) }.map { (channel, $0) }
    }
  }

  /// `{ sms: { from: "22:00", to: "07:00" } }`; `.some(nil)` for `enabled: false`.
  private func readChannelQuietHours(_ node: Node) -> [(DeliveryChannel, QuietHours?)] {
    guard let fields = document.mapping(node, what: "'quietHours'", keys: Self.serverChannelKeys) else { return [] }
    return DeliveryChannel.allCases.compactMap { channel in
      guard let node = fields[channel.rawValue], let hours = readQuietHours(node) else { return nil }
      return (channel, hours)
    }
  }

  /// `[ { id: phone }, { id: ipad, platform: ios, seenAfter: 10m } ]`: the simulated phone must be listed.
  private func readServerDevices(_ node: Node) -> [ServerDevice] {
    guard let items = document.sequence(node, what: "'devices'", example: "devices: [ { id: phone }, { id: ipad, platform: ios } ]") else {
      return [ServerDevice(id: ServerDevice.phone)]
    }
    var devices: [ServerDevice] = []
    for item in items {
      guard let fields = document.mapping(item, what: "a device", keys: Self.serverDeviceKeys) else { continue }
      guard let idNode = fields["id"], let id = document.string(idNode, what: "device id", limit: .identifier) else {
        if fields["id"] == nil { document.error(item, "a device needs an 'id'", notes: ["'phone' is the simulated phone; name other devices as you like, e.g. 'ipad'"]) }
        continue
      }
      if devices.contains(where: { $0.id == id }) {
        document.error(idNode, "device '\(Diagnostic.excerpt(id))' is listed twice", notes: ["give each device its own id"])
        continue
      }
      var device = ServerDevice(id: id, origin: document.location(item))
      if let value = fields["signedIn"].flatMap({ document.bool($0, what: "signedIn") }) { device.signedIn = value }
      if let platformNode = fields["platform"] {
        if device.isSimulatedPhone {
          document.error(platformNode, "the simulated phone's platform is the scenario's", notes: ["remove 'platform' here; set 'platform:' at the top of the scenario"])
        } else if let platform: PlatformName = choice(fields, "platform", what: "device platform") {
          device.platform = platform
        }
      }
      if let seenNode = fields["seenAfter"] {
        if device.isSimulatedPhone {
          document.error(seenNode, "the simulated phone's pushes are seen as its notifications are (Focus, looks)",
                         notes: ["remove 'seenAfter' here; it is for devices trigsim does not simulate"])
        } else if let value = serverSpan(fields, "seenAfter", allowZero: true) {
          device.seenAfter = value
        }
      }
      devices.append(device)
    }
    if !devices.contains(where: \.isSimulatedPhone) {
      document.error(node, "the devices must include the simulated phone, 'phone'",
                     notes: ["add '- { id: phone }' (with 'signedIn: false' if it starts signed out)"])
      return [ServerDevice(id: ServerDevice.phone)] + devices
    }
    // The simulated phone first, then the others as listed.
    return devices.filter(\.isSimulatedPhone) + devices.filter { !$0.isSimulatedPhone }
  }

  /// `[ { at: …, signOut: phone }, { at: …, channels: { sms: off } }, … ]`, in time order.
  private func readServerChanges(_ node: Node, devices: [ServerDevice]) -> [ServerChange] {
    guard let items = document.sequence(node, what: "'changes'", example: "changes: [ { at: 2026-05-05T12:00, signOut: phone } ]") else { return [] }
    let actionKeys = Array(Self.serverChangeKeys.dropFirst())
    var changes: [ServerChange] = []
    for item in items {
      guard let fields = document.mapping(item, what: "a server change", keys: Self.serverChangeKeys) else { continue }
      let given = actionKeys.filter { fields[$0] != nil }
      guard given.count == 1, let key = given.first, let valueNode = fields[key] else {
        document.error(item, given.isEmpty ? "a server change needs what changes" : "a server change names one thing, not \(given.joined(separator: " and "))",
                       notes: ["one of: \(actionKeys.joined(separator: ", ")); write one change per item"])
        continue
      }
      guard let atNode = fields["at"] else {
        document.error(item, "a server change needs 'at'", notes: ["e.g. 'at: 2026-05-05T12:00'"])
        continue
      }
      guard let at = instantDuringRun(atNode, what: "'at'") else { continue }
      let origin = document.location(item)
      func device(_ what: String) -> String? {
        guard let id = document.string(valueNode, what: what, limit: .identifier) else { return nil }
        guard devices.contains(where: { $0.id == id }) else {
          document.error(valueNode, "unknown device '\(Diagnostic.excerpt(id))'", notes: ["devices: \(YAMLDocument.nameList(devices.map(\.id))) (list it under 'server: devices:')"])
          return nil
        }
        return id
      }
      switch key {
      case "channels":
        for (channel, on) in readChannelSwitches(valueNode) { changes.append(ServerChange(instant: at, what: .channel(channel, on: on), origin: origin)) }
      case "quietHours":
        for (channel, hours) in readChannelQuietHours(valueNode) { changes.append(ServerChange(instant: at, what: .quietHours(channel, hours), origin: origin)) }
      case "signIn":
        if let id = device("signIn") { changes.append(ServerChange(instant: at, what: .signIn(device: id), origin: origin)) }
      case "signOut":
        if let id = device("signOut") { changes.append(ServerChange(instant: at, what: .signOut(device: id), origin: origin)) }
      case "refreshToken":
        if let id = device("refreshToken") { changes.append(ServerChange(instant: at, what: .tokenRefresh(device: id), origin: origin)) }
      case "deleteApp":
        guard let id = device("deleteApp") else { continue }
        if id == ServerDevice.phone {
          document.error(valueNode, "deleting the app from the simulated phone is not modelled",
                         notes: ["delete it from another of the patient's devices (list one under 'server: devices:'), or sign the phone out with 'signOut: phone'"])
          continue
        }
        changes.append(ServerChange(instant: at, what: .appDeleted(device: id), origin: origin))
      case "smsNumber":
        if let verified = document.choice(valueNode, what: "sms number", [("verified", true), ("removed", false)]) {
          changes.append(ServerChange(instant: at, what: .smsNumber(verified: verified), origin: origin))
        }
      default: break
      }
    }
    return changes.enumerated().sorted { ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset) }.map(\.element)
  }

  private func serverSpan(_ fields: MappingFields, _ key: String, allowZero: Bool) -> SimulationDuration? {
    guard let node = fields[key], let value = duration(node, what: key) else { return nil }
    guard value.milliseconds > 0 || (allowZero && value.milliseconds == 0), value <= .hours(24 * 366) else {
      document.error(node, "\(key) must be \(allowZero ? "zero or longer" : "longer than zero") and at most 366d, not \(value)", notes: ["e.g. \(key): 30m"])
      return nil
    }
    return value
  }

  private func serverRate(_ fields: MappingFields, _ key: String) -> Double? {
    guard let node = fields[key], let value = document.double(node, what: key) else { return nil }
    guard (0...1).contains(value) else {
      document.error(node, "\(key) must be between 0 and 1, not \(Diagnostic.excerpt(String(value)))", notes: ["a probability, e.g. \(key): 0.05"])
      return nil
    }
    return value
  }
}

// MARK: - Channel assertions

extension ScenarioReader {
  static let dosesReachedKeys = ["within", "by", "medicine"]

  /// `dosesReached: { within: 45m, by: [sms, email], medicine: met }`; `by: any` (the default) counts any means.
  func readDosesReached(_ value: Node, keyNode: Node, origin: InputLocation) -> RunAssertion? {
    guard let fields = document.mapping(value, what: "'dosesReached'", keys: Self.dosesReachedKeys) else { return nil }
    guard let withinNode = fields["within"] else {
      document.error(value, "'dosesReached' needs 'within'", notes: ["how late a dose may be perceived, e.g. 'within: 45m'"])
      return nil
    }
    guard let within = duration(withinNode, what: "'within'") else { return nil }
    var channels: [DeliveryChannel] = []
    if let byNode = fields["by"] {
      if byNode.scalar?.string == "any" {
        channels = []
      } else {
        let items = byNode.sequence.map(Array.init) ?? [byNode]
        for item in items {
          guard let channel = document.choice(item, what: "channel", DeliveryChannel.allCases.map { ($0.rawValue, $0) }) else { return nil }
          if !channels.contains(channel) { channels.append(channel) }
        }
        guard serverRead?.isActive == true else {
          document.error(byNode, "'by' names the server's channels, and the scenario has no server", notes: ["add a 'server:' with a policy, or write 'by: any'"])
          return nil
        }
      }
    }
    let medicine = fields["medicine"].map { readMedicineReference($0) }
    if medicine == .some(nil) { return nil }
    if medicineIDs.isEmpty && unreadMedicineIDs.isEmpty {
      document.error(keyNode, "'dosesReached' needs medicines", notes: ["doses come from the medicines under 'medicines:'"])
      return nil
    }
    return RunAssertion(.dosesReached(within: within, medicine: medicine.flatMap { $0 }, channels: channels), origin: origin)
  }

  /// `noSendAfterAnswer: { channel: sms }` and `noSendWhileChannelOff: { channel: email }`.
  func readChannelAssertion(_ name: String, _ value: Node, keyNode: Node, origin: InputLocation) -> RunAssertion? {
    guard let fields = document.mapping(value, what: "'\(name)'", keys: ["channel"]) else { return nil }
    guard let channelNode = fields["channel"] else {
      document.error(value, "'\(name)' needs 'channel'", notes: ["one of: \(DeliveryChannel.allCases.map(\.rawValue).joined(separator: ", "))"])
      return nil
    }
    guard let channel: DeliveryChannel = choice(fields, "channel", what: "channel") else { return nil }
    guard let server = serverRead, server.isActive else {
      document.error(keyNode, "'\(name)' checks the server's messages, and the scenario has no server", notes: ["add a 'server:' with a policy"])
      _ = channelNode
      return nil
    }
    if name == "noSendAfterAnswer" { return RunAssertion(.noSendAfterAnswer(channel), origin: origin) }
    let switches = server.changes.compactMap { change -> ChannelSwitch? in
      if case .channel(let switched, let on) = change.what, switched == channel { return ChannelSwitch(instant: change.instant, on: on) }
      return nil
    }
    return RunAssertion(.noSendWhileChannelOff(channel, initiallyOn: !server.preferences.off.contains(channel), switches: switches), origin: origin)
  }
}
