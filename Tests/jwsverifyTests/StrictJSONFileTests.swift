import Foundation
import Testing

/// Issue #39: the JSON files the CLI reads (`sign --request`, `mint token --payload`) and `--set`'s JSON values go
/// through the library's strict parser: a repeated member or a byte-order mark is refused, never resolved either way.
@Suite("strict JSON for the CLI's files")
struct StrictJSONFileTests {
    /// A fresh directory, removed after `body`.
    private func withDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("jwsverify-json-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(directory)
    }

    /// Input: `sign advanced-commerce --request` a file with two `operation` members, and one that starts with a
    /// UTF-8 byte-order mark. Expected: exit 66 naming the repeated member or the non-object, no signature (before:
    /// both signed, the file's bytes as they were, so that Apple might read either `operation`).
    @Test(
        "a request file with a repeated member or a byte-order mark is not signed",
        arguments: [
            (
                #"{"operation":"CREATE_SUBSCRIPTION","version":"1","operation":"REFUND"}"#,
                #"does not hold a JSON object: duplicate member name "operation" at byte"#
            ),
            (
                "\u{FEFF}" + #"{"operation":"CREATE_SUBSCRIPTION","version":"1"}"#,
                "does not hold a JSON object: not a JSON object"
            ),
        ])
    func requestFile(contents: String, message: String) throws {
        try withDirectory { directory in
            let file = directory.appendingPathComponent("request.json")
            try Data(contents.utf8).write(to: file)
            let run = try CLI.run([
                "sign", "advanced-commerce", "--key", SignCommandTests.key, "--key-id", "KEY1", "--bundle-id",
                "com.example", "--issuer-id", "i", "--request", file.path,
            ])
            #expect(run.status == 66, "\(run.stderr)")
            #expect(run.stdout.isEmpty)
            #expect(run.stderr.contains("Error: --request \(file.path) " + message), "\(run.stderr)")
        }
    }

    /// Input: `mint token --payload` a file with a repeated member; `--set` a value that starts like JSON and repeats
    /// a member. Expected: exit 66 and 64, each naming the repeated member (before: JSONDecoder picked one).
    @Test("mint token's payload file and --set values refuse a repeated member")
    func mintPayload() throws {
        try withDirectory { directory in
            let pki = directory.appendingPathComponent("pki").path
            let made = try CLI.run(["mint", "pki", "--quiet", "--out", pki])
            try #require(made.status == 0, "\(made.stderr)")
            let file = directory.appendingPathComponent("payload.json")
            try Data(#"{"quantity":1,"quantity":2}"#.utf8).write(to: file)
            let payload = try CLI.run(["mint", "token", "--pki", pki, "--kind", "transaction", "--payload", file.path])
            #expect(payload.status == 66, "\(payload.stderr)")
            #expect(payload.stderr.contains(#"does not hold a JSON object: duplicate member name "quantity""#))
            let set = try CLI.run([
                "mint", "token", "--pki", pki, "--kind", "transaction", "--set", #"data={"a":1,"a":2}"#,
            ])
            #expect(set.status == 64, "\(set.stderr)")
            #expect(set.stderr.contains(#"the value of data starts like JSON but is not: duplicate member name "a""#))
            let good = try CLI.run(["mint", "token", "--pki", pki, "--kind", "transaction", "--set", #"data={"a":1}"#])
            #expect(good.status == 0, "\(good.stderr)")
        }
    }
}
