import Foundation
import JWSVerify
import JWSVerifyTesting
import Testing

/// Minted tokens of every kind are accepted by Apple's own Python `SignedDataVerifier`
/// (PyPI `app-store-server-library`) with the same root, bundle id and environment, and a minted
/// token changed in any single byte is rejected by JWSVerify.
@Suite("Minted tokens and Apple's Python library")
struct ApplePythonAcceptanceTests {
    static let bundleId = "com.example.jwsverify"

    static var repositoryRoot: URL {
        var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path),
                FileManager.default.fileExists(atPath: url.appendingPathComponent("Scripts/apple_verify.py").path)
            {
                return url
            }
            url.deleteLastPathComponent()
        }
        return url
    }

    /// Runs a command; returns its status, standard output and standard error.
    static func run(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        // The default virtual environment, shared with the differential test: Scripts/apple-python-venv.sh
        // lets one process create it while the others wait (flock).
        let output = Pipe()
        let error = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = stdin
        // Python may exit before reading all of its input; that must fail the test, not kill it.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        if let input {
            // A failed write (the interpreter exited early) shows in its status and standard error.
            try? stdin.fileHandleForWriting.write(contentsOf: input)
        }
        try? stdin.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    /// Input: one minted token of each kind (and a notification of several types), under a fresh test PKI.
    /// Expected: Apple's Python library verifies every one; so does JWSVerify.
    @Test("Apple's Python SignedDataVerifier accepts minted tokens of every kind")
    func appleAcceptsMintedTokens() throws {
        let setup = try Self.run(
            "/bin/bash", [Self.repositoryRoot.appendingPathComponent("Scripts/apple-python-venv.sh").path])
        guard setup.0 == 0 else {
            print(
                "SKIPPED Apple's Python library comparison: \(setup.2.trimmingCharacters(in: .whitespacesAndNewlines))")
            return
        }
        let python = setup.1.trimmingCharacters(in: .whitespacesAndNewlines)
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 5)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "jwsverify-python-\(UUID().uuidString)")
        try pki.write(to: directory)
        defer { try? FileManager.default.removeItem(at: directory) }

        let minter = try TokenMinter(hierarchy: pki)
        var items: [(kind: String, token: String)] = []
        let kinds: [(TestPayloadKind, String)] = [
            (.transaction, "transaction"), (.renewal, "renewal"), (.appTransaction, "app-transaction"),
            (.notification, "notification"), (.realtime, "realtime"),
        ]
        for (kind, name) in kinds {
            for token in try minter.mint(kind, parameters: PayloadParameters(bundleId: Self.bundleId), count: 2) {
                items.append((name, token))
            }
        }
        for type in ["DID_RENEW", "REFUND", "SUMMARY", "EXTERNAL_PURCHASE_TOKEN", "RESCIND_CONSENT", "TEST"] {
            let parameters = PayloadParameters(
                bundleId: Self.bundleId, notificationType: type, notificationSubtype: nil)
            items.append(("notification", try minter.mint(.notification, parameters: parameters, count: 1)[0]))
        }
        var input = Data()
        for item in items {
            input.append(try JSONSerialization.data(withJSONObject: ["kind": item.kind, "token": item.token]))
            input.append(0x0A)
        }
        let result = try Self.run(
            python,
            [
                Self.repositoryRoot.appendingPathComponent("Scripts/apple_verify.py").path, "--root",
                directory.appendingPathComponent("root.der").path, "--bundle-id", Self.bundleId, "--environment",
                "Sandbox",
                "--app-apple-id", "1234",
            ], input: input)
        #expect(result.0 == 0, "\(result.2)")
        // One JSON verdict per line: {"verified": Bool, "status": "OK" | VerificationStatus name, "detail": …}.
        let verdicts = result.1.split(separator: "\n").map { line -> String in
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
            return object["verified"] as? Bool == true
                ? "VERIFIED" : "FAILED \(object["status"] ?? line) \(object["detail"] ?? "")"
        }
        #expect(verdicts.count == items.count, "\(result.2)")
        let verifier = try SignedDataVerifier(
            rootCertificates: [pki.root.der], bundleId: Self.bundleId, environment: .sandbox)
        for (index, item) in items.enumerated() {
            #expect(
                index < verdicts.count && verdicts[index] == "VERIFIED",
                "\(item.kind) #\(index): Apple says \(index < verdicts.count ? verdicts[index] : "nothing")")
            let ours = verifier.verifyAndDecode(item.token, as: PayloadKind(rawValue: item.kind))
            #expect(ours.isVerified, "\(item.kind) #\(index): \(String(describing: ours.error))")
        }
    }

    /// Input: a minted transaction changed in each single byte of header, payload and signature (a
    /// different base64url character at each position). Expected: JWSVerify rejects every variant.
    @Test("a minted token changed in any single byte is rejected")
    func everySingleByteChangeIsRejected() throws {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 6)
        let token = try TokenMinter(hierarchy: pki).mint(
            .transaction, parameters: PayloadParameters(bundleId: Self.bundleId), count: 1)[0]
        let verifier = try SignedDataVerifier(
            rootCertificates: [pki.root.der], bundleId: Self.bundleId, environment: .sandbox)
        #expect(verifier.verifyAndDecodeTransaction(token).isVerified)
        var bytes = Array(token.utf8)
        var accepted: [Int] = []
        for index in bytes.indices {
            let original = bytes[index]
            // A character that is valid base64url (so the change is not caught by the alphabet alone),
            // or another character where the original is the '.' separator.
            bytes[index] = original == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            if verifier.verifyAndDecodeTransaction(String(decoding: bytes, as: UTF8.self)).isVerified {
                accepted.append(index)
            }
            bytes[index] = original
        }
        #expect(accepted.isEmpty, "accepted after changing byte(s) \(accepted)")
    }
}
