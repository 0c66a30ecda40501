import CalendarSync
import Foundation

/// Two-way sync with a CalDAV server on 127.0.0.1, ICSKit beside vdirsyncer against the same collections (both
/// from the benchmark's virtual environment: `make venv`): wall time and each client's own CPU time (the server's
/// is the same for both).
///
/// The server is Xandikos. Radicale answers the one sync-collection REPORT of a no-change sync of 5,000 items in
/// 0.74–0.84 s by itself (measured alone with curl), so no client can sync it in 0.3 s. Both servers check a new
/// resource's UID against the whole collection on every PUT, so 5,000 PUTs take 25–40 minutes whoever sends them:
/// the 5,000-item collection is put into Xandikos's git repository in one commit, and the upload direction is
/// measured with 1,000 items (`--upload-items N` measures another count, once per client, in a section of its own).
enum CalDAVBench {
    /// `uploadItems`: how many items go up (1,000 by default, three runs per client; more, one run each: a
    /// 5,000-item upload takes each client tens of minutes of the server's time).
    static func run(
        icskit binary: String, shared: String, runs: Int, scratch: URL, command: String, uploadItems: Int = 1000
    ) throws -> String {
        let folder = scratch.appendingPathComponent("caldav")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func generated(_ count: Int) throws -> String {
            let path = folder.appendingPathComponent("bench-\(count).ics").path
            guard let text = Measure.output(["python3", shared + "/tools/gen_ics.py", String(count)]) else {
                throw BenchError("python3 \(shared)/tools/gen_ics.py \(count) failed")
            }
            try (text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let large = try generated(5000), small = try generated(uploadItems)
        let port = 20_000 + Int(getpid() % 20_000)
        let data = folder.appendingPathComponent("xandikos")
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = [
            "timeout", "3600", "xandikos", "serve", "--defaults", "-d", data.path, "-l", "127.0.0.1", "-p",
            String(port),
        ]
        server.standardOutput = FileHandle.nullDevice
        server.standardError = FileHandle.nullDevice
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        let root = "http://127.0.0.1:\(port)/user/calendars"
        let client = HTTPClient(timeout: 10, retries: 0, credentials: ("bench", "x"))
        var ready = false
        for _ in 0..<100 where !ready {
            Thread.sleep(forTimeInterval: 0.1)
            ready = (try? client.send(HTTPRequest("OPTIONS", URL(string: root + "/")!))) != nil
        }
        guard ready else { throw BenchError("xandikos did not start (is it in the benchmark's venv?)") }
        let uploadRuns = 0..<(uploadItems > 1000 ? 1 : 3)
        for name in ["down"] + uploadRuns.flatMap({ ["up-icskit-\($0)", "up-vdirsyncer-\($0)"] }) {
            let made = try client.send(HTTPRequest("MKCALENDAR", URL(string: "\(root)/\(name)/")!))
            guard made.status == 201 else { throw BenchError("MKCALENDAR \(name) answered \(made.status)") }
        }
        setenv("ICSKIT_PASSWORD", "x", 1)
        func icskit(_ arguments: [String], store: String) -> [String] {
            [binary] + arguments + ["--store", folder.appendingPathComponent(store).path]
                + (arguments.first == "export" ? [] : ["-q"])
        }

        // The 5,000 items into the server's repository as one commit, from a vdir ICSKit writes (one file per UID).
        let seed = folder.appendingPathComponent("seed")
        _ = try timed(icskit(["import", large, "--calendar", "seed"], store: "seed.sqlite"))
        _ = try timed(icskit(["export", "--calendar", "seed", "--vdir", seed.path], store: "seed.sqlite"))
        let repository = data.appendingPathComponent("user/calendars/down")
        for name in try FileManager.default.contentsOfDirectory(atPath: seed.path) where name.hasSuffix(".ics") {
            try FileManager.default.copyItem(
                at: seed.appendingPathComponent(name), to: repository.appendingPathComponent(name))
        }
        for step in [
            ["add", "-A"], ["-c", "user.name=bench", "-c", "user.email=bench@invalid", "commit", "-qm", "seed"],
        ] {
            _ = try timed(["git", "-C", repository.path] + step)
        }

        // vdirsyncer's configuration: the collection down into an empty vdir, the same 1,000 items up from a vdir.
        // Each run gets folders of its own: on this machine vdirsyncer's system time grew from 2.3 to 6.4 s over
        // three runs into one vdir path emptied in between, and not with a new path each time.
        let outgoing = folder.appendingPathComponent("vdir-up")
        /// A configuration with a new empty vdir and no status (vdirsyncer from scratch), discovered.
        func freshSyncer(_ run: String, upInto collection: String = "up-vdirsyncer-0") throws -> String {
            let local = folder.appendingPathComponent("vdir-down-\(run)")
            try FileManager.default.createDirectory(at: local, withIntermediateDirectories: true)
            func storage(_ name: String, caldav url: String) -> String {
                "[storage \(name)]\ntype = \"caldav\"\nurl = \"\(url)\"\nusername = \"bench\"\npassword = \"x\"\n"
            }
            func storage(_ name: String, vdir: URL) -> String {
                "[storage \(name)]\ntype = \"filesystem\"\npath = \"\(vdir.path)\"\nfileext = \".ics\"\n"
            }
            let config = folder.appendingPathComponent("vdirsyncer-\(run).conf").path
            try """
            [general]
            status_path = "\(folder.appendingPathComponent("status-\(run)").path)"
            [pair down]
            a = "server_down"
            b = "local_down"
            collections = null
            [pair up]
            a = "local_up"
            b = "server_up"
            collections = null
            \(storage("server_down", caldav: "\(root)/down/"))\(storage("local_down", vdir: local))\
            \(storage("local_up", vdir: outgoing))\(storage("server_up", caldav: "\(root)/\(collection)/"))
            """.write(toFile: config, atomically: true, encoding: .utf8)
            _ = Measure.output(["vdirsyncer", "--config", config, "discover"])
            return config
        }

        // The first download, three times each, taking turns (this machine's speed drifts by a fifth within
        // minutes): ICSKit into an empty store, vdirsyncer into an empty vdir. Medians are reported.
        var downloads: [Run] = [], syncerDownloads: [Run] = []
        for index in 0..<3 {
            downloads.append(
                try timed(
                    icskit(
                        ["sync", "down", "--caldav", "\(root)/down/", "--user", "bench"], store: "down-\(index).sqlite")
                ))
            let config = try freshSyncer("down-\(index)")
            syncerDownloads.append(try timed(["vdirsyncer", "--config", config, "sync", "down"]))
        }
        let download = Run.median(downloads), syncerDown = Run.median(syncerDownloads)
        var idle: [Double] = []
        for _ in 0..<max(runs, 5) { idle.append(try timed(icskit(["sync", "down"], store: "down-0.sqlite")).seconds) }
        let syncerIdle = try timed(
            ["vdirsyncer", "--config", folder.appendingPathComponent("vdirsyncer-down-2.conf").path, "sync", "down"])

        // The items up into an empty collection, (1,000 of them) three times each in turns as well: the server's
        // PUTs are most of the minute a run takes, and its pace varies as much as the machine's.
        _ = try timed(icskit(["import", small, "--calendar", "up"], store: "up.sqlite"))
        _ = try timed(icskit(["export", "--calendar", "up", "--vdir", outgoing.path], store: "up.sqlite"))
        var uploads: [Run] = [], syncerUploads: [Run] = []
        var ours = 0, theirs = 0
        for index in uploadRuns {
            let store = folder.appendingPathComponent("up-\(index).sqlite")
            try? FileManager.default.removeItem(at: store)
            try FileManager.default.copyItem(at: folder.appendingPathComponent("up.sqlite"), to: store)
            uploads.append(
                try timed(
                    icskit(
                        ["sync", "up", "--caldav", "\(root)/up-icskit-\(index)/", "--user", "bench"],
                        store: "up-\(index).sqlite")))
            let config = try freshSyncer("up-\(index)", upInto: "up-vdirsyncer-\(index)")
            syncerUploads.append(try timed(["vdirsyncer", "--config", config, "sync", "up"]))
            // Both clients left the same collections behind.
            ours = try count(client, "\(root)/up-icskit-\(index)/")
            theirs = try count(client, "\(root)/up-vdirsyncer-\(index)/")
            guard ours == theirs, ours > 0 else {
                throw BenchError("uploads differ: icskit \(ours), vdirsyncer \(theirs)")
            }
        }
        let upload = Run.median(uploads), syncerUp = Run.median(syncerUploads)

        let idleMedian = idle.sorted()[idle.count / 2]
        func row(_ name: String, _ ours: Run, _ theirs: Run) -> String {
            "| \(name) | \(Report.format(ours.seconds)) | \(Report.format(ours.cpu)) | "
                + "\(Report.format(theirs.seconds)) | \(Report.format(theirs.cpu)) | "
                + "\(Report.ratio(ours.seconds, theirs.seconds)) | \(Report.ratio(ours.cpu, theirs.cpu)) |"
        }
        let version = Measure.output(["vdirsyncer", "--version"]) ?? "vdirsyncer"
        let serverVersion = Measure.output([
            "python3", "-c", "import xandikos; print('.'.join(map(str, xandikos.__version__)))",
        ])
        // Issue 47 retired the fifth: AsyncHTTPClient alone costs most of it. CPU at most 0.3× vdirsyncer's.
        let cpuMet = download.cpu <= syncerDown.cpu * 0.3 && upload.cpu <= syncerUp.cpu * 0.3
        let wallMet = download.seconds <= syncerDown.seconds && upload.seconds <= syncerUp.seconds
        return [
            "### CalDAV: gen_ics.py with Xandikos \(serverVersion ?? "") on 127.0.0.1, beside \(version)", "",
            "- date: \(ISO8601DateFormatter().string(from: Date()))",
            "- machine: \(Report.machine)",
            "- command: `\(command)`; first syncs: median of 3 runs each (the upload: \(uploadRuns.count)), taken in "
                + "turns; the no-change sync: median of \(idle.count)",
            "- download runs (s / CPU s): icskit \(downloads.map(\.text).joined(separator: ", ")); vdirsyncer "
                + "\(syncerDownloads.map(\.text).joined(separator: ", "))",
            "- upload runs (s / CPU s): icskit \(uploads.map(\.text).joined(separator: ", ")); vdirsyncer "
                + "\(syncerUploads.map(\.text).joined(separator: ", "))", "",
            "| first sync | icskit s | icskit CPU s | vdirsyncer s | vdirsyncer CPU s | wall | CPU |",
            "|---|---:|---:|---:|---:|---:|---:|",
            row("server → empty local side, 5,000 items", download, syncerDown),
            row(
                "local side → empty server, \(uploadItems.formatted(.number.grouping(.automatic))) items (\(ours) "
                    + "resources)", upload, syncerUp), "",
            "| no-change sync, 5,000 items | s | goal | |", "|---|---:|---:|---|",
            "| icskit sync (one sync-collection REPORT) | \(Report.format(idleMedian)) | ≤ 0.30 s | "
                + "\(idleMedian <= 0.3 ? "met" : "**NOT met**") |",
            "| vdirsyncer sync | \(Report.format(syncerIdle.seconds)) | | |", "",
            "- Goals: wall ≤ 1.0× vdirsyncer's (\(wallMet ? "met" : "**NOT met**")), CPU ≤ 0.3× vdirsyncer's "
                + "(\(cpuMet ? "met" : "**NOT met**")).",
        ].joined(separator: "\n")
    }

    /// How many resources a collection holds.
    static func count(_ client: HTTPClient, _ url: String) throws -> Int {
        try CalDAVStorage(collection: URL(string: url)!, client: client).list().count
    }

    struct Run {
        var seconds: Double
        var cpu: Double

        /// The median wall time and the median CPU time (each on its own) of some runs.
        static func median(_ runs: [Run]) -> Run {
            Run(
                seconds: runs.map(\.seconds).sorted()[runs.count / 2], cpu: runs.map(\.cpu).sorted()[runs.count / 2])
        }

        var text: String { "\(Report.format(seconds)) / \(Report.format(cpu))" }
    }

    static func timed(_ arguments: [String]) throws -> Run {
        let start = Measure.now()
        let (status, usage) = try Measure.spawnAndWait(arguments)
        guard status == 0 else { throw BenchError("\(arguments.joined(separator: " ")) exited \(status)") }
        let cpu =
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
        return Run(seconds: Measure.now() - start, cpu: cpu)
    }
}
