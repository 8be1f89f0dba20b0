import ProcessSupport
import Testing

/// `MallocArenas`, the glibc arena limit navsessionctl sets first thing.
struct MallocArenasTests {
    @Test func glibcAcceptsALimit() {
        // A limit above what a 2-core test process makes by default (8 per core), so this test changes nothing.
        #expect(MallocArenas.limit(to: 64))
    }
}
