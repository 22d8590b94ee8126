import RemindCommands

// remindctl: the commands live in RemindCommands (tested there against a stub daemon); this runs them.
RemindCtl.start()
