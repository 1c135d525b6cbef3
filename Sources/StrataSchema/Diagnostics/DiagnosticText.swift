import Foundation

/// Diagnostics as a terminal shows them.
public enum DiagnosticText {
    /// The text with `error:` in bold red and `warning:` in bold yellow wherever a line names its
    /// severity (`path:1:2: error: ...`, or a line starting `error: ...`); the rest is unchanged.
    public static func colored(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var line = String(line)
            for (word, code) in [("error:", "31"), ("warning:", "33")] {
                if line.hasPrefix(word) {
                    line = "\u{1B}[1;\(code)m\(word)\u{1B}[0m" + line.dropFirst(word.count)
                } else if let range = line.range(of: ": " + word) {
                    line.replaceSubrange(range, with: ": \u{1B}[1;\(code)m\(word)\u{1B}[0m")
                }
            }
            return line
        }.joined(separator: "\n")
    }
}
