import CalendarModel

extension CalendarMerger.Plan {
    /// The second half of planning, over content: an item both sides changed since the base is merged field by
    /// field (`PropertyMerge`) when the storage still knows what the base said; every update names the fields it
    /// changes. Reads the contents it needs through `contents` (inside the storage's transaction when applying).
    /// Pure but for that read: the same snapshot and contents give the same plan.
    mutating func mergeFields(
        external item: (MergeKey) -> MergeItem?, timeZones: [TimeZoneDefinition], contents: MergeContentReader
    ) throws {
        // By index, the kind first: a plan holds every item of the calendar, and most are left as they are.
        var wanted: [Int] = []
        for index in actions.indices where actions[index].kind == .update || actions[index].wasConflict {
            if snapshot.items[actions[index].key] != nil,
                actions[index].kind == .update || isBothChanged(actions[index])
            {
                wanted.append(index)
            }
        }
        guard !wanted.isEmpty else { return }
        let read = try contents(Set(wanted.map { actions[$0].key }))
        let time = CalendarTime(calendar: CalendarMerger.zoneCalendar(timeZones), viewerZone: "UTC")
        for index in wanted {
            let key = actions[index].key
            guard let theirs = item(key), let local = read.local[key] else { continue }
            guard isBothChanged(actions[index]) else {
                actions[index].changes = PropertyMerge.changes(from: local, to: theirs.component, side: .external)
                continue
            }
            baseContents[key] = theirs.component
            guard let base = read.base[key] else { continue }  // decided whole, as the planner did
            let outcome = PropertyMerge.merge(
                base: base, local: local, external: theirs.component, winner: winner(theirs.version, key))
            decide(index, outcome, time: time)
        }
    }

    /// Whether the planner found the item changed on both sides since a base it has.
    func isBothChanged(_ action: MergeAction) -> Bool {
        action.wasConflict && snapshot.base[action.key] != nil && external[action.key] != nil
    }

    /// Who takes a field both sides changed differently: the preferred side, or the newer version.
    func winner(_ theirs: ItemVersion, _ key: MergeKey) -> MergeSide {
        switch options.prefer {
        case .external: return .external
        case .local: return .local
        case .newest:
            guard let mine = snapshot.items[key] else { return .external }
            return theirs.isNewer(than: mine) ? .external : .local
        }
    }

    /// Turns a field-by-field outcome into the item's decision.
    mutating func decide(_ index: Int, _ outcome: PropertyMerge.Outcome, time: CalendarTime) {
        var action = actions[index]
        action.changes = outcome.changes
        action.wasConflict = outcome.hasConflict
        let why: String
        if outcome.hasConflict {
            let winner = outcome.changes.first(where: \.isConflict)!.side
            let policy = options.prefer == .newest ? "the \(winner.rawValue) version is newer" : "--prefer \(winner)"
            why = "changed on both sides, some fields differently; "
            switch options.onConflict {
            case .fail?:
                action.kind = .conflict
                action.reason = why + "left unresolved (--on-conflict fail)"
                actions[index] = action
                return
            case .keepBoth?:
                action.kind = .keepBoth
                action.reason = why + "both kept"
                actions[index] = action
                return
            case nil:
                action.reason = why + "those take the \(winner.rawValue) value (\(policy))"
            }
        } else {
            action.reason = "changed on both sides, in different fields: both changes kept"
        }
        // A result that says what the external version says is that version, as it is: the store then holds what
        // the source holds (no SEQUENCE of the merge's own), so the source's next change is the only change.
        if outcome.equalsExternal {
            action.kind = .update
        } else if outcome.equalsLocal {
            action.kind = .keepLocal
        } else if let items = ICS.calendars(from: [outcome.component]).calendars.first?.components,
            let made = items.first, let item = MergeItem(made, time: time)
        {
            action.kind = .merge
            merged[action.key] = item
        }
        actions[index] = action
    }
}

extension CalendarMerger {
    /// A calendar holding only these VTIMEZONEs, to place the times of items that use them (the merge's and the
    /// storage's, when they write what the merge planned).
    package static func zoneCalendar(_ zones: [TimeZoneDefinition]) -> ICalendar {
        var calendar = ICalendar()
        calendar.components = zones.map { .timeZone($0) }
        return calendar
    }
}
