import Foundation
import XCTest

/// `make install` and `make uninstall` (issue 66) into a temporary DESTDIR: the installed icskit runs, its bash
/// completion completes, its man page reads with `man -l`, and uninstall takes every file away again.
final class InstallCLITests: XCTestCase {
    func make(_ target: String, _ destination: URL) throws -> CLI.Run {
        try CLI.run(
            [
                "make", "--no-print-directory", target, "BINARY=\(CLI.binary)", "PREFIX=/usr",
                "DESTDIR=\(destination.path)",
            ],
            in: CLI.package, executable: "/usr/bin/env", timeout: 300)
    }

    func testInstallPutsTheBinaryCompletionsAndManPageAndUninstallTakesThemAway() throws {
        let destination = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: destination) }
        let install = try make("install", destination)
        XCTAssertEqual(install.status, 0, install.stderr)
        let root = destination.appendingPathComponent("usr")
        let installed = [
            "bin/icskit", "share/man/man1/icskit.1", "share/bash-completion/completions/icskit",
            "share/zsh/site-functions/_icskit", "share/fish/vendor_completions.d/icskit.fish",
        ]
        for file in installed {
            XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path), file)
        }
        let icskit = root.appendingPathComponent("bin/icskit").path
        let version = try CLI.run(["--version"], executable: icskit)
        XCTAssertEqual(version.status, 0, version.stderr)
        XCTAssertEqual(version.stdout, try CLI.run(["--version"]).stdout)

        // The bash completion, as bash-completion loads it: `icskit con<TAB>` offers convert.
        let completion = root.appendingPathComponent("share/bash-completion/completions/icskit").path
        let bash = try CLI.run(
            [
                "bash", "-c",
                "source \"$1\"; complete -p icskit; COMP_WORDS=(icskit con); COMP_CWORD=1; COMP_LINE='icskit con'; "
                    + "COMP_POINT=10; _icskit; printf '%s\\n' \"${COMPREPLY[@]}\"", "bash", completion,
            ], executable: "/usr/bin/env",
            environment: ["PATH": root.appendingPathComponent("bin").path + ":/usr/bin:/bin"])
        XCTAssertEqual(bash.status, 0, bash.stderr)
        XCTAssertTrue(bash.stdout.contains("complete") && bash.stdout.contains("_icskit icskit"), bash.stdout)
        XCTAssertTrue(bash.stdout.split(separator: "\n").contains("convert"), bash.stdout)

        // The man page, rendered.
        let page = root.appendingPathComponent("share/man/man1/icskit.1").path
        let man = try CLI.run(
            ["man", "-l", page], executable: "/usr/bin/env", environment: ["MANPAGER": "cat", "MANWIDTH": "100"])
        XCTAssertEqual(man.status, 0, man.stderr)
        for expected in ["ICSKIT(1)", "SYNOPSIS", "COMMANDS", "convert", "agenda", "store.sqlite"] {
            XCTAssertTrue(man.stdout.contains(expected), "\(expected) in\n\(man.stdout.prefix(2000))")
        }

        let uninstall = try make("uninstall", destination)
        XCTAssertEqual(uninstall.status, 0, uninstall.stderr)
        let left = FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []
        XCTAssertEqual(left, [], "uninstall leaves nothing under PREFIX")
    }
}
