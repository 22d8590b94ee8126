import ReminderCore
import ReminderInterface
import VarlinkProtocol

/// The methods of `io.remindd.Reminders` that ``ReminderService`` answers.
extension ReminderService {
    func register(in router: inout MethodRouter) {
        router.on(Reminders.Add.self) { p in
            .init(reminder: try await add(name: p.name, rule: p.rule, timeZone: p.timeZone, enabled: p.enabled ?? true, window: p.window, delivery: p.delivery))
        }
        router.on(Reminders.Update.self) { p in
            .init(reminder: try await update(key: p.reminder, name: p.name, rule: p.rule, timeZone: p.timeZone, window: p.window, delivery: p.delivery))
        }
        router.on(Reminders.Remove.self) { p in .init(reminder: try await remove(key: p.reminder)) }
        router.on(Reminders.Enable.self) { p in .init(reminder: try await setEnabled(key: p.reminder, true)) }
        router.on(Reminders.Disable.self) { p in .init(reminder: try await setEnabled(key: p.reminder, false)) }
        // One page (of `limit`, default 500) and the `after` of the next; called with `more`, every page as its
        // own reply. Never everything in one reply: a reply is encoded without a break.
        router.stream(Reminders.List.self) { call, p, reply in
            if call.more == true {
                var after: Int64? = p.after ?? 0
                while let start = after {
                    let page = try list(after: start, limit: p.limit ?? Self.listPageSize)
                    after = page.next
                    try await reply(.init(reminders: page.reminders, after: nil), after != nil ? true : nil)
                    // A write that does not have to wait does not suspend: without this, the pages would hold
                    // their thread to the end, and a firing queued behind them would wait (7 s for 100,000).
                    await yieldToQueuedWork()
                }
            } else {
                let page = try list(after: p.after ?? 0, limit: p.limit ?? Self.listPageSize)
                try await reply(.init(reminders: page.reminders, after: page.next), nil)
            }
        }
        router.on(Reminders.Get.self) { p in .init(reminder: try get(key: p.reminder), ladder: try ladder(key: p.reminder).steps) }
        router.on(Reminders.Occurrences.self, readsOnly: true) { p in try await occurrences(date: p.date, key: p.reminder) }
        router.on(Reminders.Preview.self, readsOnly: true) { p in
            .init(firings: try preview(rule: p.rule, timeZone: p.timeZone, after: p.after, count: p.count ?? 10, steps: p.steps))
        }
        router.on(Reminders.Next.self, readsOnly: true) { p in try await next(count: p.count ?? 10) }
        router.on(Reminders.Log.self) { p in try await log(key: p.reminder, at: p.at, amount: p.amount, force: p.force ?? false) }
        router.on(Reminders.Done.self) { p in try await done(key: p.reminder, amount: p.amount, force: p.force ?? false) }
        router.on(Reminders.TakeLate.self) { p in .init(occurrence: try await takeLate(key: p.reminder)) }
        router.on(Reminders.Skip.self) { p in .init(occurrence: try await skip(key: p.reminder, reason: p.reason)) }
        router.on(Reminders.Unskip.self) { p in .init(occurrence: try await unskip(key: p.reminder)) }
        router.on(Reminders.Pause.self) { p in
            let paused = try await pause(key: p.reminder, all: p.all ?? false, from: p.from, until: p.until, reason: p.reason)
            return .init(
                reminders: paused.reminders, count: paused.count, loggedWithin: paused.loggedWithin, from: paused.span.shown.from, until: paused.span.shown.until)
        }
        router.on(Reminders.Resume.self) { p in
            let (reminders, count) = try await resume(key: p.reminder, all: p.all ?? false)
            return .init(reminders: reminders, count: count)
        }
        router.on(Reminders.Snooze.self) { p in try await snooze(key: p.reminder, minutes: p.minutes) }
        router.on(Reminders.Logs.self, readsOnly: true) { p in .init(logs: try logs(date: p.date, key: p.reminder)) }
        router.on(Reminders.DeleteLog.self) { p in .init(log: try await deleteLog(id: p.id)) }
        router.on(Reminders.History.self, readsOnly: true, largeReply: true) { p in
            // Off the event loops: up to 100,000 entries of a long history are read and worded.
            .init(entries: try await offTheEventLoops { () throws(ServiceError) in try history(since: p.since, key: p.reminder, limit: p.limit ?? 1000) })
        }
    }
}
