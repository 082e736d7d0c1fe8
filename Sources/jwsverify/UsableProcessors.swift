import Foundation

/// How many processors this process may run on.
///
/// `DispatchQueue.concurrentPerform` and `ProcessInfo.activeProcessorCount` count every online
/// processor, also for a process confined to fewer (`taskset -c 0`, a container's cpuset): threads
/// started for the others then only take turns on the allowed ones. On Linux the affinity is read from
/// `/proc/self/status` (`Cpus_allowed_list`).
enum UsableProcessors {
    /// The processors this process may run on; the online processors when the affinity cannot be read.
    static var count: Int {
        #if os(Linux)
            if let allowed = allowedCount() {
                return max(1, min(allowed, ProcessInfo.processInfo.activeProcessorCount))
            }
        #endif
        return max(1, ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The number of processors in `/proc/self/status`'s `Cpus_allowed_list` (such as `0-3,8`); nil when
    /// the file or the line cannot be read.
    private static func allowedCount() -> Int? {
        guard case .success(let input) = ByteSource.open(path: "/proc/self/status", role: ""),
            case .success(let (bytes, _)) = input.readAll(upTo: 64 * 1024)
        else { return nil }
        let prefix = "Cpus_allowed_list:"
        guard
            let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first(where: {
                $0.hasPrefix(prefix)
            })
        else { return nil }
        return count(inList: line.dropFirst(prefix.count))
    }

    /// The number of processors in a Linux CPU list (`0-3,8`); nil when it is not one.
    static func count(inList list: Substring) -> Int? {
        var total = 0
        for range in list.split(separator: ",") {
            let bounds = range.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count),
                let first = Int(bounds[0].trimmingCharacters(in: .whitespaces)),
                let last = Int(bounds[bounds.count - 1].trimmingCharacters(in: .whitespaces)), first <= last,
                last - first < 1 << 20
            else { return nil }
            total += last - first + 1
        }
        return total > 0 ? total : nil
    }
}
