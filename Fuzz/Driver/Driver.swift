import Foundation
import ICSKitFuzzTargets

#if ICSKIT_FUZZ
/// The target this libFuzzer binary fuzzes: `ICSKIT_FUZZ_TARGET` (ics, jcal, xcal, csv, rrule, store).
private let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["ICSKIT_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        fatalError("set ICSKIT_FUZZ_TARGET to one of " + FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return target
}()

/// libFuzzer's entry point (see `make fuzz`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    target.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// libFuzzer's driver, which its own `main` would call (`-sanitize=fuzzer` links libFuzzer).
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM points an executable's `main` at `<product>_main`; here that hands over to libFuzzer's driver.
@_cdecl("icskit_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, fuzzOneInput)
}
#else
/// Without libFuzzer: replays inputs through a target, to reproduce a finding.
/// `icskit-fuzz TARGET FILE…` runs each file and says which one, if any, trips a check.
@main
struct Replay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(
                Data(
                    ("usage: icskit-fuzz TARGET FILE…  (targets: "
                        + FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ") + ")\n").utf8))
            exit(2)
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
                exit(2)
            }
            print(path)
            target.run([UInt8](data))
        }
    }
}
#endif
