import VarlinkProtocol

/// One interface remindd serves: its name, its IDL text, its methods and the errors it declares.
public struct InterfaceDescription: Sendable {
    public let name: String
    /// The `.varlink` text, as `org.varlink.service.GetInterfaceDescription` returns it.
    public let idl: String
    public let methods: [any VarlinkMethod.Type]
    public let errors: [any VarlinkErrorParameters.Type]
}

/// remindd's whole Varlink surface, written once: the daemon registers a handler for every method listed here
/// (and a test checks it registered exactly these), remindctl calls them by type, and a test compares every
/// method, field and error with the IDL files.
public enum Catalogue {
    public static let interfaces: [InterfaceDescription] = [
        InterfaceDescription(
            name: Reminders.interface, idl: text(PackageResources.io_remindd_Reminders_varlink),
            methods: [
                Reminders.Add.self, Reminders.Update.self, Reminders.Remove.self, Reminders.Enable.self, Reminders.Disable.self,
                Reminders.List.self, Reminders.Get.self, Reminders.Occurrences.self, Reminders.Preview.self, Reminders.Next.self,
                Reminders.Log.self, Reminders.Done.self, Reminders.TakeLate.self, Reminders.Skip.self, Reminders.Unskip.self, Reminders.Pause.self, Reminders.Resume.self,
                Reminders.Snooze.self, Reminders.Logs.self,
                Reminders.DeleteLog.self, Reminders.History.self, Reminders.Report.self, Reminders.RelinkCollection.self,
                Reminders.Status.self, Reminders.Watch.self,
            ],
            errors: [
                RemindErrors.ReminderNotFound.self, RemindErrors.NameTaken.self, RemindErrors.InvalidRule.self, RemindErrors.InvalidTime.self,
                RemindErrors.UnknownTimeZone.self, RemindErrors.NothingDue.self, RemindErrors.DoseNotAllowed.self, RemindErrors.LogNotFound.self,
                RemindErrors.InvalidInput.self, RemindErrors.StoreFailure.self, RemindErrors.WatchTooSlow.self, RemindErrors.ProtocolError.self,
            ]),
        InterfaceDescription(
            name: Habits.interface, idl: text(PackageResources.io_remindd_Habits_varlink),
            methods: [
                Habits.Streak.self, Habits.RestMark.self, Habits.RestUnmark.self, Habits.RestList.self, Habits.RestStats.self,
                Habits.FreezeHistory.self, Habits.Recover.self, Habits.Achievements.self, Habits.Calendar.self,
            ],
            errors: [RemindErrors.HabitRefused.self, RemindErrors.InvalidTime.self, RemindErrors.InvalidInput.self, RemindErrors.StoreFailure.self]),
        InterfaceDescription(
            name: Fitness.interface, idl: text(PackageResources.io_remindd_Fitness_varlink),
            methods: [
                Fitness.ExerciseSearch.self, Fitness.ExerciseList.self, Fitness.ExerciseShow.self, Fitness.WorkoutAdd.self, Fitness.WorkoutEdit.self,
                Fitness.WorkoutDelete.self, Fitness.FoodAdd.self, Fitness.FoodDelete.self, Fitness.Day.self, Fitness.DayHistory.self,
                Fitness.ProfileGet.self, Fitness.ProfileSet.self,
            ],
            errors: [RemindErrors.InvalidTime.self, RemindErrors.InvalidInput.self, RemindErrors.StoreFailure.self]),
        InterfaceDescription(
            name: Routines.interface, idl: text(PackageResources.io_remindd_Routines_varlink),
            methods: [Routines.List.self, Routines.Show.self, Routines.Select.self, Routines.Current.self, Routines.Clear.self],
            errors: [RemindErrors.NameTaken.self, RemindErrors.InvalidTime.self, RemindErrors.InvalidInput.self, RemindErrors.StoreFailure.self]),
        InterfaceDescription(
            name: Medication.interface, idl: text(PackageResources.io_remindd_Medication_varlink),
            methods: [Medication.StockSet.self, Medication.StockAdd.self, Medication.Stock.self],
            errors: [RemindErrors.ReminderNotFound.self, RemindErrors.InvalidInput.self, RemindErrors.StoreFailure.self]),
        InterfaceDescription(
            name: Backup.interface, idl: text(PackageResources.io_remindd_Backup_varlink),
            methods: [Backup.Export.self, Backup.Upload.self, Backup.Import.self, Backup.ImportLoop.self, Backup.ImportCalendar.self],
            errors: [RemindErrors.NameTaken.self, RemindErrors.InvalidInput.self, RemindErrors.StoreFailure.self]),
    ]

    /// The interface that reports protocol errors (a message that is not a call has no interface).
    public static let protocolErrorInterface = Reminders.interface

    /// The IDL text of each interface, by name, for the server's `GetInterfaceDescription`.
    public static var descriptions: [String: String] {
        Dictionary(uniqueKeysWithValues: interfaces.map { ($0.name, $0.idl) })
    }

    /// `error` as raised by a method of `interface`: in that interface when it declares the error, else in
    /// the first interface that does (io.remindd.Reminders declares the errors every method can raise).
    public static func error(_ error: some VarlinkErrorParameters, calledIn interface: String) -> VarlinkError {
        let name = type(of: error).errorName
        let declares = { (description: InterfaceDescription) in description.errors.contains { $0.errorName == name } }
        let home = interfaces.first { $0.name == interface && declares($0) } ?? interfaces.first(where: declares) ?? interfaces[0]
        return error.error(in: home.name)
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
}
