import Foundation
import JWSVerifyTesting
import Testing

@testable import JWSVerify

/// The JSON documents the library builds for `jwsverify` (``SignedDataOutcome/jsonDocument(includeDER:)``,
/// ``SignedDataOutcome/inspectionDocument``) and the compact `batch` line that other callers write with members of
/// their own (``BatchResultLine/writeCompact(_:kind:id:leading:into:)``).
@Suite("JSON documents and batch lines of verification results")
struct SignedDataDocumentTests {
    static let bundleId = "com.example.documents"

    /// A transaction and a notification minted by a seeded hierarchy, and a verifier of its root.
    static func fixtures() throws -> (
        verifier: SignedDataVerifier, transaction: String, notification: String, root: Data
    ) {
        let pki = try TestHierarchy.generate(.appStoreEC, seed: 25)
        let minter = try TokenMinter(hierarchy: pki)
        var parameters = PayloadParameters(bundleId: bundleId, signedDate: Date(timeIntervalSince1970: 1_780_000_000))
        parameters.environment = "Sandbox"
        let verifier = try SignedDataVerifier(
            rootCertificates: [pki.root.der], bundleId: bundleId, environments: [.sandbox])
        return (
            verifier, try minter.mint(.transaction, parameters: parameters)[0],
            try minter.mint(.notification, parameters: parameters)[0], pki.root.der
        )
    }

    /// The members of a JSON object's text.
    static func members(_ text: some Collection<UInt8>) throws -> [String: JSONValue] {
        try JSONParser.parseObject(Array(text))
    }

    /// Input: a verified transaction and one refused for its bundle id. Expected: the verification object carries
    /// `schemaVersion` 1, the verdict and the error's code and check, every check of the report and the chain; its
    /// `Encodable` form encodes the same document.
    @Test("the verification object carries the verdict, the checks and the chain, and encodes as itself")
    func verificationObject() throws {
        let (verifier, transaction, _, root) = try Self.fixtures()
        let verified = SignedDataOutcome(token: verifier.verifyAndDecode(transaction, as: nil), kind: nil)
        let document = try #require(verified.jsonDocument(includeDER: true).objectValue)
        #expect(document["schemaVersion"] == .integer(Int64(JSONSchema.version)))
        #expect(document["verified"] == .bool(true))
        #expect(document["kind"] == .string(PayloadKind.transaction.rawValue))
        #expect(document["code"] == .null)
        #expect(document["environment"] == nil, "a token's environment is in its payload")
        guard case .array(let checks)? = document["checks"], case .array(let chain)? = document["chain"] else {
            Issue.record("no checks or chain")
            return
        }
        #expect(checks.count == verified.checks.count && !checks.isEmpty)
        #expect(chain.count == 3)
        let encoded = try Self.members(Array(try JSONEncoder().encode(verified)))
        #expect(.object(encoded) == verified.jsonDocument(includeDER: true))

        let other = try SignedDataVerifier(
            rootCertificates: [root], bundleId: "com.example.other", environments: [.sandbox])
        let refused = SignedDataOutcome(token: other.verifyAndDecode(transaction, as: nil), kind: nil)
        let error = try #require(refused.error)
        let failure = try #require(refused.jsonDocument(includeDER: false).objectValue)
        #expect(failure["verified"] == .bool(false))
        #expect(failure["code"] == .string(error.code.rawValue))
        #expect(failure["check"] == .string(error.check.rawValue))
        #expect(failure["message"] == .string(error.message))
    }

    /// Input: a transaction through the batch line writer of a verification result, with `page` and `index` first
    /// and ids whose parsed values collide. Expected: the line `batch` writes for the same outcome (without `line`),
    /// after the leading members in their order; each id byte for byte.
    @Test("the compact line of a result has the caller's members first and batch's bytes after them")
    func compactLineOfResult() throws {
        let (verifier, transaction, notification, _) = try Self.fixtures()
        for token in [transaction, notification, "not a token"] {
            for id in ["9223372036854775808", "9223372036854775809", #""\ud800""#] {
                var line: [UInt8] = []
                BatchResultLine.writeCompact(
                    verifier.verifyAndDecode(token, as: nil), id: Array(id.utf8),
                    leading: [("page", .integer(2)), ("index", .integer(7))], into: &line)
                var reference: [UInt8] = []
                BatchResultLine.writeCompact(
                    SignedDataOutcome(token: verifier.verifyAndDecode(token, as: nil), kind: nil, reporting: false),
                    line: nil, id: Array(id.utf8), fields: nil, into: &reference)
                let text = String(decoding: line, as: UTF8.self)
                #expect(text == #"{"page":2,"index":7,"# + String(decoding: reference.dropFirst(), as: UTF8.self))
                #expect(text.contains(#","id":\#(id),"#), "the id as written")
                let members = try Self.members(line)
                #expect(members["line"] == nil)
                #expect(members["schemaVersion"] == .integer(Int64(BatchResultLine.compactSchemaVersion)))
                #expect(members["verified"] == .bool(token != "not a token"))
            }
        }
    }

    /// Input: a transaction, and text that is not a token, inspected. Expected: the inspection object is
    /// unverified, names the kind, the header and the `x5c` chain, or the code and check of the decoding failure.
    @Test("the inspection object of a token names its kind and header, or why it did not decode")
    func inspectionObject() throws {
        let (_, transaction, _, _) = try Self.fixtures()
        let decoded = try #require(
            SignedDataOutcome.inspecting(transaction, kind: nil, nesting: true).inspectionDocument.objectValue)
        #expect(decoded["verified"] == .bool(false))
        #expect(decoded["kind"] == .string(PayloadKind.transaction.rawValue))
        #expect(decoded["code"] == .null)
        guard case .object(let header)? = decoded["header"], case .array(let chain)? = decoded["chain"] else {
            Issue.record("no header or chain")
            return
        }
        #expect(header["alg"] == .string("ES256"))
        #expect(chain.count == 3)

        let refused = try #require(
            SignedDataOutcome.inspecting("a.b", kind: nil, nesting: true).inspectionDocument.objectValue)
        #expect(refused["code"] == .string(VerificationError.Code.malformedToken.rawValue))
        #expect(refused["check"] == .string(VerificationError.Check.format.rawValue))
        #expect(refused["header"] == .null)
    }
}
