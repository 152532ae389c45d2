/// When Firebase Cloud Messaging hands over a normal-priority message that
/// reaches a dozing phone. The two Google pages disagree.
public enum FCMNormalPriorityInDoze: String, Sendable, CaseIterable {
  /// When the phone leaves Doze (the screen comes on, it is plugged in): FCM's
  /// "Set and manage Android message priority" page ("delivery may be delayed
  /// … until the device exits doze"). The later of the two readings; the default.
  case dozeEnd = "doze-end"
  /// At the next maintenance window, or when the phone leaves Doze if that is
  /// sooner: the power-details table ("Normal priority: Deferred to window").
  case maintenanceWindow = "maintenance-window"
}

/// Which messages FCM keeps when a message with a fifth collapse key arrives
/// for a phone that already has messages of four keys stored. Firebase says
/// only that it keeps four keys "with no guarantees about which ones are
/// kept" ("Non-collapsible and collapsible messages"). A registry setting
/// (`storedCollapseKeysKept`); trials draw the discarded key per arrival.
public enum FCMCollapseKeysKept: String, Sendable, CaseIterable {
  /// The four stored before: the new message is discarded. Its dose is the
  /// nearest, the one a reminder can still help, so this reading loses the
  /// most; the default, as no source says otherwise.
  case oldest
  /// The four most recent: the message of the key stored longest is discarded.
  case newest
}

/// The push rules of the `android` profile: how Firebase Cloud Messaging
/// (FCM) delivers the app server's messages, each a named setting with its
/// default and source (the manual, "Android pushes").
///
/// A scenario's `pushes:` are read as FCM messages on Android: `priority: 10`
/// is FCM's high priority and 5 or 1 its normal priority (the pairing FCM's
/// HTTP v1 documentation gives, `android.priority` beside `apns-priority`);
/// a push with a title or body is a notification message, one with only
/// `contentAvailable` a data message; `collapseId` is the collapse key and
/// `expiration` the time to live.
public struct FCMRules: Sendable, Equatable {
  /// Where a normal-priority message waits while the phone dozes. Default `doze-end`.
  public var normalPriorityInDoze = FCMNormalPriorityInDoze.dozeEnd
  /// High-priority messages per rolling day by standby bucket, past which
  /// FCM treats them as normal priority (power-details table: frequent 10 a
  /// day, rare 5, restricted 5; active and working set unrestricted).
  public var frequentHighPriorityPerDay = 10
  public var rareHighPriorityPerDay = 5
  public var restrictedHighPriorityPerDay = 5
  /// On which versions the bucket quotas apply. The table's footnote limits
  /// them to Android 12 (API 32) and lower: the default, as documented.
  public var bucketQuotaScope = BucketAlarmLimitScope.beforeAndroid13
  /// How many high-priority messages without a notification the patient could
  /// see, within `deprioritizationWindow`, make FCM deliver later ones at normal
  /// priority ("Set and manage Android message priority": messages that do
  /// not result in user-facing notifications may be deprioritized; FCM uses 7
  /// days of behaviour). The page gives no count: 1, the pessimistic reading,
  /// is the default; 0 turns deprioritization off.
  public var deprioritizeAfterUnnotified = 1
  /// How far back FCM looks when it deprioritizes (7 days, same page).
  public var deprioritizationWindow: SimulationDuration = .hours(24 * 7)
  /// How long FCM keeps a message for an unreachable phone when it states no
  /// time to live ("Setting the lifespan of a message": four weeks, 28 days).
  public var defaultTimeToLive: SimulationDuration = .hours(24 * 28)
  /// How many non-collapsible messages FCM stores for an unreachable phone;
  /// past it every stored message is discarded and the app is told
  /// (`onDeletedMessages`) when the phone is back ("Non-collapsible and
  /// collapsible messages": 100).
  public var storedMessageLimit = 100
  /// How many collapse keys FCM stores at once (same page: four).
  public var storedCollapseKeys = 4
  /// Which keys a single run keeps past `storedCollapseKeys` (Firebase gives
  /// no guarantee: the registry's `storedCollapseKeysKept`). Default `oldest`.
  public var collapseKeysKept = FCMCollapseKeysKept.oldest

  public init() {}

  /// The high-priority quota per rolling day in `bucket` on Android
  /// `version`, or nil when the bucket has none there.
  public func highPriorityQuota(for bucket: StandbyBucket, androidVersion version: Int) -> Int? {
    if bucketQuotaScope == .beforeAndroid13 && version >= 13 { return nil }
    switch bucket {
    case .active, .workingSet: return nil
    case .frequent: return frequentHighPriorityPerDay
    case .rare: return rareHighPriorityPerDay
    case .restricted: return restrictedHighPriorityPerDay
    }
  }

  /// Each setting that differs from its default (`fcm-normal-in-doze=maintenance-window …`),
  /// empty when none does: the rules came after the first Android headers, which stay as they were.
  public var summary: String {
    let defaults = FCMRules()
    var words: [String] = []
    if normalPriorityInDoze != defaults.normalPriorityInDoze { words.append("fcm-normal-in-doze=\(normalPriorityInDoze.rawValue)") }
    if frequentHighPriorityPerDay != defaults.frequentHighPriorityPerDay { words.append("fcm-frequent-high=\(frequentHighPriorityPerDay)/d") }
    if rareHighPriorityPerDay != defaults.rareHighPriorityPerDay { words.append("fcm-rare-high=\(rareHighPriorityPerDay)/d") }
    if restrictedHighPriorityPerDay != defaults.restrictedHighPriorityPerDay { words.append("fcm-restricted-high=\(restrictedHighPriorityPerDay)/d") }
    if bucketQuotaScope != defaults.bucketQuotaScope { words.append("fcm-bucket-quotas=\(bucketQuotaScope.rawValue)") }
    if deprioritizeAfterUnnotified != defaults.deprioritizeAfterUnnotified { words.append("fcm-deprioritize-after=\(deprioritizeAfterUnnotified)") }
    if deprioritizationWindow != defaults.deprioritizationWindow { words.append("fcm-deprioritize-window=\(deprioritizationWindow)") }
    if defaultTimeToLive != defaults.defaultTimeToLive { words.append("fcm-ttl=\(defaultTimeToLive)") }
    if storedMessageLimit != defaults.storedMessageLimit { words.append("fcm-stored-limit=\(storedMessageLimit)") }
    if storedCollapseKeys != defaults.storedCollapseKeys { words.append("fcm-collapse-keys=\(storedCollapseKeys)") }
    if collapseKeysKept != defaults.collapseKeysKept { words.append("fcm-collapse-keys-kept=\(collapseKeysKept.rawValue)") }
    return words.joined(separator: " ")
  }
}
