import Foundation

/// Where the tests find the package, its fixtures and the Python of the test virtual environment.
public enum TestEnvironment {
    /// The package's folder.
    public static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A file of Fixtures/.
    public static func fixture(_ name: String) -> String { package.appendingPathComponent("Fixtures/" + name).path }

    /// The Python the tests compare with and start servers with: ICSKIT_PYTHON, else .build/venv's, else python3.
    public static let pythonExecutable: String = {
        if let path = ProcessInfo.processInfo.environment["ICSKIT_PYTHON"], !path.isEmpty { return path }
        let venv = package.appendingPathComponent(".build/venv/bin/python3").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
    }()
}
