import Foundation

/// Extended attributes of a file (Linux `setxattr(2)` and its kin; macOS's take an extra options argument): a mark
/// that belongs to the file itself, so that every hard link to it carries it. Glibc's Swift module leaves
/// `<sys/xattr.h>` out, so on Linux the functions are found by name in the C library. Where the file system keeps
/// no such attributes, setting one fails and reading finds none.
enum FileAttributes {
    /// Sets `name` to `value` on the file at `path`; whether it was kept.
    @discardableResult
    static func set(_ name: String, _ value: [UInt8], path: String) -> Bool {
        #if canImport(Darwin)
        return setxattr(path, name, value, value.count, 0, 0) == 0
        #else
        typealias Set =
            @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32)
            -> Int32
        guard let function: Set = function("setxattr") else { return false }
        return value.withUnsafeBytes { function(path, name, $0.baseAddress, value.count, 0) } == 0
        #endif
    }

    /// The value of `name` on the file at `path` (at most 4 kB of it); nil when it has none.
    static func get(_ name: String, path: String) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        #if canImport(Darwin)
        let count = getxattr(path, name, &buffer, buffer.count, 0, 0)
        #else
        typealias Get =
            @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int)
            -> Int
        guard let function: Get = function("getxattr") else { return nil }
        let count = buffer.withUnsafeMutableBytes { function(path, name, $0.baseAddress, $0.count) }
        #endif
        return count > 0 ? Array(buffer.prefix(count)) : nil
    }

    /// Removes `name` from the file at `path`, if it has it.
    static func remove(_ name: String, path: String) {
        #if canImport(Darwin)
        _ = removexattr(path, name, 0)
        #else
        typealias Remove = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>) -> Int32
        guard let function: Remove = function("removexattr") else { return }
        _ = function(path, name)
        #endif
    }

    #if !canImport(Darwin)
    /// A C library function by name, as a Swift function of type `T`.
    private static func function<T>(_ symbol: String) -> T? {
        guard let address = dlsym(nil, symbol) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }
    #endif
}
