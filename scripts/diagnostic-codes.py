#!/usr/bin/env python3
"""Lists every diagnostic code the sources give (`code: "…"` at the call that makes the diagnostic) with its
severity and message, the message's interpolations shown as `…`. `scripts/diagnostic-codes.py` prints the table
of docs/DIAGNOSTICS.md; DiagnosticCodeTests checks that the file and the sources name the same codes."""
import glob, re, collections

def without_interpolations(code):
    """The Swift text with each string interpolation `\\(…)` (nested calls and string literals in it too) made `…`."""
    out, i, in_string = [], 0, False
    while i < len(code):
        c = code[i]
        if in_string and code.startswith("\\(", i):
            depth, i = 1, i + 2
            while i < len(code) and depth:
                if code[i] == '"':  # a string literal inside the interpolation
                    i += 1
                    while i < len(code) and code[i] != '"':
                        i += 2 if code[i] == "\\" else 1
                depth += {"(": 1, ")": -1}.get(code[i], 0) if i < len(code) else 0
                i += 1
            out.append("…")
            continue
        if in_string and c == "\\":
            out.append(code[i:i + 2])
            i += 2
            continue
        if c == '"':
            in_string = not in_string
        out.append(c)
        i += 1
    return "".join(out)


opener = re.compile(r"(?:log\.(error|warning)|\b(warn|note|warnOnce|repaired)|\b(error|warning)|Diagnostic)\(\s*(\.error|\.warning)?")
found = collections.OrderedDict()
for path in sorted(glob.glob("Sources/**/*.swift", recursive=True)):
    text = open(path).read()
    for m in re.finditer(r'code: "([a-z0-9-]+)"', text):
        code = m.group(1)
        window = text[max(0, m.start() - 700):m.start()]
        calls = list(opener.finditer(window))
        call = calls[-1] if calls else None
        severity = "warning"
        if call and ((call.group(1) or call.group(3)) == "error" or call.group(4) == ".error"):
            severity = "error"
        body = window[call.end():] if call else window
        if call and call.group(2) == "warnOnce":  # the message is the closure after the arguments
            body = text[m.end():text.find("}", m.end())]
        body = re.sub(r'lineOf\("[^"]*"', "", body)
        # `a ? "x" : "y"`: two messages, not one
        body = re.sub(r'"\s*:\s*"', '" / "', re.sub(r'"\s*\n\s*:\s*"', '" / "', body))
        if call and not re.search(r'"', body):  # the message was made before the call: `let message = …`
            made = window.rfind("message =")
            body = window[made:window.rfind("if ", made) if "if " in window[made:] else len(window)] if made >= 0 else body
            body = re.sub(r'"\s*\n\s*:\s*"', '" / "', body)
        pieces = re.findall(r'"((?:[^"\\]|\\.)*)"|( / )', without_interpolations(body))
        message = "".join(a or b for a, b in pieces)
        message = re.sub(r"\\\((?:[^()]|\([^()]*\))*\)", "…", message).replace('\\"', '"')
        if call and call.group(2) == "repaired":  # PeerRepair's helper adds the prefix
            message = "repaired: " + message
        entry = found.setdefault(code, {"severity": set(), "messages": []})
        entry["severity"].add(severity)
        if message and message not in entry["messages"]:
            entry["messages"].append(message)
print("| Code | Severity | Message |")
print("|---|---|---|")
for code in sorted(found):
    entry = found[code]
    severity = " or ".join(sorted(entry["severity"]))
    message = " / ".join(entry["messages"][:2]).replace("|", "\\|") or "(the CSV reader's own message)"
    print(f"| `{code}` | {severity} | {message} |")
