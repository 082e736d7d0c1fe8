import Foundation
import JWSVerify
import Testing

@testable import jwsverify

/// The pure rendering helpers, called directly.
@Suite("Rendering")
struct RenderingTests {
    /// Keys are sorted at every depth, strings escaped, and the text parses back to the same value.
    @Test("JSONWriter sorts keys, escapes strings and round-trips")
    func jsonWriter() throws {
        let value = JSONValue.object([
            "b": .array([.integer(-3), .double(1_697_679_936_049.7297), .null, .bool(true)]),
            "a": .object(["z": .string("quote \" backslash \\ newline \n tab \t bell \u{07} é"), "y": .object([:])]),
            "c": .array([]),
        ])
        let compact = JSONWriter.write(value, pretty: false)
        #expect(
            compact.hasPrefix(
                "{\"a\":{\"y\":{},\"z\":\"quote \\\" backslash \\\\ newline \\n tab \\t bell \\u0007 é\"}"))
        #expect(!compact.contains("\n"))
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(compact.utf8))
        #expect(decoded == value)
        let pretty = JSONWriter.write(value, pretty: true)
        #expect(topLevelKeys(ofPrettyJSON: pretty) == ["a", "b", "c"])
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(pretty.utf8)) == value)
    }

    /// The copier of payload text drops whitespace, keeps member order and escape sequences, escapes what
    /// the writer escapes, replaces members at paths, and refuses what it cannot copy safely.
    @Test("JSONTextCopier compacts, escapes, replaces members at paths and refuses escaped member names")
    func textCopier() throws {
        func copy(_ text: String, replacing paths: [String] = []) -> String? {
            var out: [UInt8] = []
            var replacements: [String: JSONTextCopier.Writer] = [:]
            for path in paths { replacements[path] = { $0.append(contentsOf: "\"R\"".utf8) } }
            return JSONTextCopier.copy(Array(text.utf8), replacing: replacements, into: &out)
                ? String(decoding: out, as: UTF8.self) : nil
        }
        #expect(
            copy(" { \"b\" : [ 1 , -2.5e3 , true , null ] ,\n \"a\" : \"x\\n\" } ")
                == #"{"b":[1,-2.5e3,true,null],"a":"x\n"}"#)
        #expect(copy("{\"t\":\"\u{1B}\u{9B}\u{202E}\u{7F}\"}") == #"{"t":"\u001b\u009b\u202e\u007f"}"#)
        #expect(
            copy(
                #"{"data":{"signedTransactionInfo":"eyJ","x":[{"signedTransactionInfo":1}]},"k":2}"#,
                replacing: ["data.signedTransactionInfo"])
                == #"{"data":{"signedTransactionInfo":"R","x":[{"signedTransactionInfo":1}]},"k":2}"#)
        #expect(
            copy(#"{"d\u0061ta":{"signedTransactionInfo":"eyJ"}}"#, replacing: ["data.signedTransactionInfo"]) == nil)
        #expect(copy(#"{"d\u0061ta":1}"#) == #"{"d\u0061ta":1}"#)
        #expect(copy("{\"a\":") == nil)
        #expect(copy("{\"a\":1} x") == nil)
        #expect(copy(String(repeating: "[", count: 100) + String(repeating: "]", count: 100)) == nil)
    }

    /// Input: payload texts the strict parser accepts, hundreds of bytes long, with spaces inside strings (kept) and
    /// outside them (dropped) after more quotes than one of the 255-byte blocks they are counted in holds, among
    /// them arrays of empty strings (two quotes in every three bytes, the densest valid JSON).
    /// Expected: `copy(parsed:)`, which returns compact printable text as it is, writes what the full copier
    /// writes, and its check says which texts are their own compact copy.
    @Test("the compact-text check counts quotes across blocks, as the full copier reads the text")
    func compactTextCheck() throws {
        let members = (0..<60).map { "\"k\($0)\":\"v\"" }.joined(separator: ",")
        let texts = [
            "{\"a\":\"" + String(repeating: "x", count: 300) + " y\"}",
            "{\"a\":\"" + String(repeating: "x", count: 300) + "\", \"b\":1}",
            "{" + members + ",\"s\":\"in side\"}",
            "{" + members + ", \"s\":1}",
            "{" + members + ",\"s\":\"a b c\",\"t\": 2}",
            "[" + Array(repeating: "\"\"", count: 400).joined(separator: ",") + ",\"a b\"]",
            "[" + Array(repeating: "\"\"", count: 400).joined(separator: ",") + ", 1]",
        ]
        var compact: [Bool] = []
        for text in texts {
            let json = Array(text.utf8)
            _ = try JSONParser.parseValue(json)
            var full: [UInt8] = []
            var parsed: [UInt8] = []
            #expect(JSONTextCopier.copy(json, into: &full))
            #expect(JSONTextCopier.copy(parsed: json, into: &parsed))
            #expect(String(decoding: parsed, as: UTF8.self) == String(decoding: full, as: UTF8.self))
            compact.append(JSONTextCopier.isCompactPlainText(json))
        }
        #expect(compact == [true, false, true, false, false, true, false])
    }

    /// The generated field kinds of a model find enumeration names and timestamps by JSON path.
    @Test("payload annotations name enumerations and find timestamps")
    func annotations() throws {
        let payload = try JSONDecoder().decode(
            ResponseBodyV2DecodedPayload.self,
            from: Data(
                #"{"notificationType":"SUBSCRIBED","signedDate":1,"data":{"environment":"Sandbox","status":9}}"#.utf8))
        let document = PayloadDocument(.notification(DecodedNotification(notification: payload)), annotate: true)
        #expect(document.enumerationNames["notificationType"] == "subscribed")
        #expect(document.enumerationNames["data.environment"] == "sandbox")
        #expect(document.enumerationNames["data.status"] == nil, "an unknown value has no name")
        #expect(document.timestampPaths == ["signedDate"])
        #expect(
            PayloadDocument(.notification(DecodedNotification(notification: payload)), annotate: false)
                .enumerationNames.isEmpty == true)
    }

    /// Input: a transaction with dates at the top level and inside Advanced Commerce items and refunds, which
    /// the models store as `…Timestamp` properties. Expected: the timestamp paths use the JSON keys
    /// (`purchaseDate`, not `purchaseDateTimestamp`), at every depth.
    @Test("payload annotations report timestamps under their JSON keys")
    func timestampPathsAreJSONKeys() throws {
        let json = #"""
            {"purchaseDate":1697679936049.7297,"type":"Consumable","advancedCommerceInfo":{"items":[
            {"SKU":"a","revocationDate":2,"refunds":[{"refundDate":-3,"refundType":"FULL"}]}]}}
            """#
        let transaction = try JSONDecoder().decode(JWSTransactionDecodedPayload.self, from: Data(json.utf8))
        let document = PayloadDocument(.transaction(transaction), annotate: true)
        #expect(
            document.timestampPaths == [
                "purchaseDate", "advancedCommerceInfo.items[0].revocationDate",
                "advancedCommerceInfo.items[0].refunds[0].refundDate",
            ])
        #expect(document.enumerationNames["type"] == "consumable")
        #expect(document.enumerationNames["advancedCommerceInfo.items[0].refunds[0].refundType"] == "full")
    }

    /// Input: a notification payload with its three nested-token members (one not a token) and a `signedFoo`
    /// member the table does not name. Expected: the table's members that hold strings, in path order, each with
    /// its kind; `signedFoo` is not guessed to be a token.
    @Test("nested tokens are the members the payload kind table names")
    func nestedTokens() {
        let json: [String: JSONValue] = [
            "data": .object(["signedTransactionInfo": .string("a.b.c"), "signedRenewalInfo": .string("no dots")]),
            "appData": .object(["signedAppTransactionInfo": .string("x.y.z"), "signedFoo": .string("d.e.f")]),
            "signedDate": .integer(1),
        ]
        let found = PayloadKind.notification.nestedTokens(in: json)
        #expect(
            found.map(\.path) == [
                "appData.signedAppTransactionInfo", "data.signedRenewalInfo", "data.signedTransactionInfo",
            ])
        #expect(found.map(\.kind) == [.appTransaction, .renewalInfo, .transaction])
        #expect(PayloadKind.transaction.nestedTokens(in: json).isEmpty)
    }

    /// Leading and trailing ASCII whitespace goes; inner bytes stay.
    @Test("ASCII whitespace trimming keeps inner bytes")
    func trimming() {
        #expect(Array(Array(" \t\r\na b\r\n".utf8).trimmingASCIIWhitespace()) == Array("a b".utf8))
        #expect(Array("   ".utf8).trimmingASCIIWhitespace().isEmpty)
        #expect(Array([0xFF, 0x20]).trimmingASCIIWhitespace() == [0xFF])
    }
}
