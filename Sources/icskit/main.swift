import ICSKitCLI

// The executable is only this: every command lives in the ICSKitCLI library, where tests can reach it.
ICSKitCommand.main()
