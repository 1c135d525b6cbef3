import Testing
@testable import Strata

/// How soon the commit watcher tries again a store it could not read.
@Suite("Retry delay")
struct RetryDelayTests {
    @Test func theWaitDoublesUpToFiveSecondsAndStartsOverOnceEverythingWasRead() {
        var delay = RetryDelay(interval: .seconds(3_600))
        let waits = (0..<8).map { _ in delay.next() }
        #expect(waits == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(800),
                          .milliseconds(1_600), .milliseconds(3_200), .seconds(5), .seconds(5)])
        #expect(delay.reset() == .seconds(3_600))
        #expect(delay.next() == .milliseconds(100))
    }

    @Test func theWaitIsNeverLongerThanTheInterval() {
        var delay = RetryDelay(interval: .milliseconds(250))
        #expect((0..<4).map { _ in delay.next() } == [.milliseconds(100), .milliseconds(200), .milliseconds(250), .milliseconds(250)])
        #expect(delay.reset() == .milliseconds(250))
    }
}
