import Foundation
import JWSVerify
import Testing

@testable import AppStoreServerAPI

/// The client reads response bodies with the library's strict parser and decodes the models from its tree
/// (`JSONTreeDecoder`); Foundation's `JSONDecoder` with Apple's date format is the reference. On structured
/// mutations of Apple's own response bodies (a member removed, set to `null`, replaced by a value of another
/// type, a number out of range or with a fraction, wrapped in an array), both must agree: the same model, or both
/// refuse it.
@Suite("Response models from the strict parser's tree agree with JSONDecoder")
struct ResponseTreeDifferentialTests {
    /// A small deterministic generator (SplitMix64), so that a failure names a reproducible case.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// Values that stress a model's fields: every JSON kind, integers at the edges of Int32 and Int64, fractions,
    /// non-finite-looking large doubles, strings that look like numbers, UUIDs and enumeration names.
    static let replacements: [JSONValue] = [
        .null, .bool(true), .bool(false), .integer(0), .integer(1), .integer(-1), .integer(5),
        .integer(Int64(Int32.max)), .integer(Int64(Int32.max) + 1), .integer(Int64(Int32.min) - 1),
        .integer(Int64.max), .integer(Int64.min), .double(1.5), .double(-0.25), .double(1e300), .double(4.0e18),
        .string(""), .string("1"), .string("Sandbox"), .string("PRODUCTION"), .string("2000000001"),
        .string("7e0b9b37-9dc2-4ee5-a8f0-7a9e1c3a8e5b"), .string("not-a-uuid"), .array([]), .array([.integer(1)]),
        .array([.string("a")]), .object([:]), .object(["x": .integer(1)]),
    ]

    /// One structured mutation of `value` at a random place.
    static func mutate(_ value: JSONValue, _ random: inout Generator) -> JSONValue {
        switch value {
        case .object(var members) where !members.isEmpty && random.below(4) != 0:
            let keys = members.keys.sorted()
            let key = keys[random.below(keys.count)]
            switch random.below(6) {
            case 0: members[key] = nil
            case 1: members[key] = .null
            case 2: members[key] = .array([members[key] ?? .null])
            default: members[key] = mutate(members[key] ?? .null, &random)
            }
            return .object(members)
        case .array(var elements) where !elements.isEmpty && random.below(4) != 0:
            let index = random.below(elements.count)
            elements[index] = mutate(elements[index], &random)
            return .array(elements)
        default:
            return replacements[random.below(replacements.count)]
        }
    }

    /// Decodes `body` both ways and expects the same answer; returns whether the reference decoded it.
    @discardableResult
    static func agree<Model: Decodable & Equatable>(_ type: Model.Type, _ body: Data, _ label: String) -> Bool {
        let reference = try? Self.referenceDecoder.decode(Model.self, from: body)
        let tree = try? AppStoreServerAPIClient.decode(Model.self, from: body)
        #expect(reference == tree, "\(label): \(String(decoding: body, as: UTF8.self).prefix(400))")
        return reference != nil
    }

    /// Foundation's decoder with the API's dates (milliseconds since 1970, finite).
    static var referenceDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let milliseconds = try container.decode(Double.self)
            guard milliseconds.isFinite else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not finite")
            }
            return Date(timeIntervalSince1970: milliseconds / 1000)
        }
        return decoder
    }

    static func mutations<Model: Decodable & Equatable>(
        of file: String, as type: Model.Type, count: Int, seed: UInt64
    ) throws {
        let base = try JSONDecoder().decode(JSONValue.self, from: Vectors.api(file))
        agree(Model.self, try JSONEncoder().encode(base), "\(file) as given")
        var random = Generator(state: seed)
        var decoded = 0
        var refused = 0
        for index in 0..<count {
            var value = base
            for _ in 0...random.below(3) { value = mutate(value, &random) }
            guard case .object = value else { continue }  // the strict parser reads objects only, by design
            if agree(Model.self, try JSONEncoder().encode(value), "\(file) mutation \(index) (seed \(seed))") {
                decoded += 1
            } else {
                refused += 1
            }
        }
        // Both outcomes are exercised, or the comparison proves little.
        #expect(decoded >= count / 10 && refused >= count / 10, "\(file): \(decoded) decoded, \(refused) refused")
    }

    /// Input: 400 seeded mutations of each of Apple's response bodies with signed members, dates, enumerations,
    /// 32-bit fields, UUIDs and a dictionary. Expected: the tree decoder's model equals JSONDecoder's, or both
    /// refuse the body.
    @Test(
        "mutated response bodies decode to the same model both ways, or fail both ways",
        arguments: [
            "transactionHistoryResponse.json", "getAllSubscriptionStatusesResponse.json",
            "getNotificationHistoryResponse.json", "getStatusOfSubscriptionRenewalDateExtensionsResponse.json",
            "performanceTestResultResponse.json", "getImageListResponse.json", "lookupOrderIdResponse.json",
            "extendSubscriptionRenewalDateResponse.json",
        ])
    func mutatedBodies(file: String) throws {
        let seed = UInt64(file.utf8.reduce(25) { $0 &* 31 &+ UInt64($1) })
        switch file {
        case "transactionHistoryResponse.json":
            try Self.mutations(of: file, as: HistoryResponse.self, count: 400, seed: seed)
        case "getAllSubscriptionStatusesResponse.json":
            try Self.mutations(of: file, as: StatusResponse.self, count: 400, seed: seed)
        case "getNotificationHistoryResponse.json":
            try Self.mutations(of: file, as: NotificationHistoryResponse.self, count: 400, seed: seed)
        case "getStatusOfSubscriptionRenewalDateExtensionsResponse.json":
            try Self.mutations(of: file, as: MassExtendRenewalDateStatusResponse.self, count: 400, seed: seed)
        case "performanceTestResultResponse.json":
            try Self.mutations(of: file, as: PerformanceTestResultResponse.self, count: 400, seed: seed)
        case "getImageListResponse.json":
            try Self.mutations(of: file, as: GetImageListResponse.self, count: 400, seed: seed)
        case "lookupOrderIdResponse.json":
            try Self.mutations(of: file, as: OrderLookupResponse.self, count: 400, seed: seed)
        default:
            try Self.mutations(of: file, as: ExtendRenewalDateResponse.self, count: 400, seed: seed)
        }
    }
}
