import ArgumentParser
import CalendarStore
import Foundation

/// Every failure as the one line a person reads. ICSKit's own errors already say what failed and what to do;
/// those of the layers underneath (SQLite through GRDB, Foundation's file errors, the operating system) are
/// translated here, and their own text — SQL, error domains, codes — never reaches standard error.
enum ErrorText {
    /// The modules whose errors are written for people.
    private static let ownModules: Set<String> = [
        "CalendarModel", "CalendarStore", "CalendarMerge", "CalendarSync", "ICSKitCLI", "ArgumentParser",
    ]

    /// `error` as one line; `subject` names what was being read or written (a file), when the error does not, and
    /// `doing` what was being done with it.
    static func line(_ error: any Error, subject: String? = nil, doing: String = "use") -> String {
        switch error {
        case let failure as CommandFailure: return failure.message
        case let failure as ValidationError: return failure.message
        case let failure as StoreError: return failure.description
        default: break
        }
        if let store = StoreError(translating: error) { return store.description }
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain {
            return fileProblem(nsError, subject: subject, doing: doing)
        }
        let type = String(reflecting: Swift.type(of: error))
        if let module = type.split(separator: ".").first, ownModules.contains(String(module)) { return "\(error)" }
        return (subject.map { "\($0): " } ?? "")
            + "an unexpected failure (\(type.split(separator: ".").last ?? "error")); nothing was changed; "
            + "please report the command that failed"
    }

    /// A file that could not be read or written, said the way `cp` and `cat` say it.
    private static func fileProblem(_ error: NSError, subject: String?, doing: String) -> String {
        let path =
            (error.userInfo[NSFilePathErrorKey] as? String)
            ?? (error.userInfo[NSURLErrorKey] as? URL)?.path ?? subject
        let what = "cannot \(doing) " + (path ?? "a file")
        if let path, FileManager.default.isFolder(path) {
            return "\(what): it is a folder (give the files in it, or a command that takes folders)"
        }
        return "\(what): \(reason(error))"
    }

    /// Why, from the POSIX cause when there is one (Foundation wraps it), else from Foundation's code.
    private static func reason(_ error: NSError) -> String {
        var posix: Int32? = error.domain == NSPOSIXErrorDomain ? Int32(error.code) : nil
        if posix == nil, let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError,
            underlying.domain == NSPOSIXErrorDomain
        {
            posix = Int32(underlying.code)
        }
        switch posix {
        case EISDIR?: return "it is a folder (give the files in it, or a command that takes folders)"
        case ENOENT?: return "no such file or folder"
        case EACCES?, EPERM?: return "permission denied"
        case ENOSPC?, EDQUOT?: return "the disk is full"
        case EROFS?: return "the file system is read-only"
        case ENOTDIR?: return "a part of the path is not a folder"
        default: break
        }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file or folder"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "the disk is full"
        case .fileWriteVolumeReadOnly: return "the file system is read-only"
        case .fileReadInapplicableStringEncoding, .fileReadCorruptFile: return "it is not text ICSKit can read"
        case .fileWriteFileExists: return "it already exists"
        default:
            if let posix { return String(cString: strerror(posix)).lowercased() }
            return "it cannot be read or written"
        }
    }
}
