extension String {
    /// The UTF-8 bytes of the pieces, in order, as one string written into its own storage: one allocation, where
    /// joining them with `+` allocated for each (texts built on every change: a change's cause, the undo label).
    /// The bytes are validated as the string is made, so pieces cut inside a character are repaired, not trusted.
    init<A: Collection<UInt8>, B: Collection<UInt8>, C: Collection<UInt8>, D: Collection<UInt8>>(
        utf8Joining a: A, _ b: B, _ c: C, _ d: D = EmptyCollection<UInt8>()
    ) {
        self.init(unsafeUninitializedCapacity: a.count + b.count + c.count + d.count) {
            (buffer: UnsafeMutableBufferPointer<UInt8>) -> Int in
            var end = buffer.initialize(fromContentsOf: a)
            end = buffer[end...].initialize(fromContentsOf: b)
            end = buffer[end...].initialize(fromContentsOf: c)
            return buffer[end...].initialize(fromContentsOf: d)
        }
    }
}
