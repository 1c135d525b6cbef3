import Foundation

/// Rendered files kept between runs of the generator in a folder of their own, each beside the
/// exact inputs it was rendered from (``RenderKey``). A file whose inputs did not change is taken
/// from here instead of being rendered again: in a large model one entity's change touches two
/// files of thirty-odd, and rendering is most of the generator's time.
///
/// Only a speed-up: a missing, unreadable or stale entry is a miss, and a file that cannot be
/// written is left out. The build plugin keeps one per model in its work folder.
public final class RenderCache {
    /// The folder holding the entries.
    public let directory: String
    /// What identifies the generator that rendered the entries (its executable's size and time),
    /// so that a rebuilt generator renders everything again.
    private let generator: String
    /// Files taken from the cache since it was made.
    public private(set) var hits = 0
    /// The files rendered since it was made, for want of a current entry, in the order asked.
    public private(set) var missed: [String] = []
    /// How many files were rendered for want of a current entry.
    public var misses: Int { missed.count }

    /// A cache in `directory` (made on first store). `generator` is written into every key.
    public init(directory: String, generator: String) {
        self.directory = directory
        self.generator = generator
    }

    /// The text rendered before from exactly `key`, if the cache holds it.
    func text(named name: String, key: String) -> String? {
        let keyed = Data((generator + "\n" + key).utf8)
        guard FileManager.default.contents(atPath: path(name, "key")) == keyed,
              let text = FileManager.default.contents(atPath: path(name, "rendered")) else {
            missed.append(name)
            return nil
        }
        hits += 1
        return String(decoding: text, as: UTF8.self)
    }

    /// Keeps `text` as rendered from `key`. The old key goes first and the new one last, so an
    /// interrupted store leaves a miss, never a key beside another key's text.
    func store(_ text: String, named name: String, key: String) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: path(name, "key"))
            try Data(text.utf8).write(to: URL(fileURLWithPath: path(name, "rendered")), options: .atomic)
            try Data((generator + "\n" + key).utf8).write(to: URL(fileURLWithPath: path(name, "key")), options: .atomic)
        } catch {
            // Only a speed-up: the next run renders this file again.
        }
    }

    private func path(_ name: String, _ kind: String) -> String {
        directory + "/" + name + "." + kind
    }
}
