#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a POSIX read-write lock: many readers at once, one writer alone.
///
/// For read-mostly shared state on the verification path (the chain cache), where readers must not
/// wait for each other.
///
/// Unsafe pointers: this is one of the few files outside `OpenSSL/` that holds one (Docs/Security.md,
/// "Unsafe code"): a `pthread_rwlock_t` must stay at one address for its whole life, so it is
/// allocated once here and freed in `deinit`.
///
/// `@unchecked Sendable`: `value` is only touched inside `read` (shared lock) or `write` (exclusive
/// lock), and `Value` is `Sendable`.
final class ReadWriteLocked<Value: Sendable>: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private var value: Value

    init(_ value: Value) {
        self.value = value
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        // With default attributes this fails only on resource exhaustion; PTHREAD_RWLOCK_INITIALIZER
        // (the zeroed value set above) is then still a valid lock.
        _ = pthread_rwlock_init(lock, nil)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with shared access.
    func read<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(value)
    }

    /// Runs `body` with exclusive access.
    func write<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(&value)
    }
}
