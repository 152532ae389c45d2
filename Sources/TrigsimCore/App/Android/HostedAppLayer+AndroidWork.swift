/// WorkManager's runs reach the app's code by the same path as its alarms:
/// a force-stopped app gets none; otherwise the system starts its process
/// in the background if it is not running (`onCreate`), then `doWork`.
extension HostedAppLayer {
  func workRan(_ work: WorkRequestInfo, in run: inout SimulationRun, at now: SimulationInstant) {
    let fields = [TimelineField("work", work.name.rawValue)]
    guard !forceStopped(run) else {
      notRun("doWork", fields, Self.forceStoppedReason, in: &run, at: now)
      return
    }
    wake(.work, in: &run, at: now)
    guard let app = androidApp else { return }
    call("doWork", fields, in: &run, at: now) { await app.doWork(work) }
  }
}
