import Foundation
import Testing

@testable import JWSVerify

/// The `Date` accessors of the models (Apple's names, `purchaseDate: Date?`) and the timestamps under them
/// (`purchaseDateTimestamp: Timestamp?`), for every date field of every model.
@Suite("Date accessors and their timestamps")
struct DateAccessorTests {
    /// Every date field of every model.
    static let fields: [DateField] = [
        .init(JWSTransactionDecodedPayload.self, "purchaseDate", \.purchaseDate, \.purchaseDateTimestamp),
        .init(
            JWSTransactionDecodedPayload.self, "originalPurchaseDate", \.originalPurchaseDate,
            \.originalPurchaseDateTimestamp),
        .init(JWSTransactionDecodedPayload.self, "expiresDate", \.expiresDate, \.expiresDateTimestamp),
        .init(JWSTransactionDecodedPayload.self, "signedDate", \.signedDate, \.signedDateTimestamp),
        .init(JWSTransactionDecodedPayload.self, "revocationDate", \.revocationDate, \.revocationDateTimestamp),
        .init(
            JWSRenewalInfoDecodedPayload.self, "gracePeriodExpiresDate", \.gracePeriodExpiresDate,
            \.gracePeriodExpiresDateTimestamp),
        .init(JWSRenewalInfoDecodedPayload.self, "signedDate", \.signedDate, \.signedDateTimestamp),
        .init(
            JWSRenewalInfoDecodedPayload.self, "recentSubscriptionStartDate", \.recentSubscriptionStartDate,
            \.recentSubscriptionStartDateTimestamp),
        .init(JWSRenewalInfoDecodedPayload.self, "renewalDate", \.renewalDate, \.renewalDateTimestamp),
        .init(AppTransaction.self, "receiptCreationDate", \.receiptCreationDate, \.receiptCreationDateTimestamp),
        .init(AppTransaction.self, "originalPurchaseDate", \.originalPurchaseDate, \.originalPurchaseDateTimestamp),
        .init(AppTransaction.self, "preorderDate", \.preorderDate, \.preorderDateTimestamp),
        .init(AppTransaction.self, "requestDate", \.requestDate, \.requestDateTimestamp),
        .init(ResponseBodyV2DecodedPayload.self, "signedDate", \.signedDate, \.signedDateTimestamp),
        .init(DecodedRealtimeRequestBody.self, "signedDate", \.signedDate, \.signedDateTimestamp),
        .init(ExternalPurchaseToken.self, "tokenCreationDate", \.tokenCreationDate, \.tokenCreationDateTimestamp),
        .init(
            ExternalPurchaseToken.self, "tokenExpirationDate", \.tokenExpirationDate, \.tokenExpirationDateTimestamp),
        .init(AdvancedCommerceTransactionItem.self, "revocationDate", \.revocationDate, \.revocationDateTimestamp),
        .init(AdvancedCommerceRefund.self, "refundDate", \.refundDate, \.refundDateTimestamp),
        .init(
            TransactionCommitmentInfo.self, "commitmentExpiresDate", \.commitmentExpiresDate,
            \.commitmentExpiresDateTimestamp),
        .init(
            RenewalCommitmentInfo.self, "commitmentRenewalDate", \.commitmentRenewalDate,
            \.commitmentRenewalDateTimestamp),
    ]

    /// Every App Store model type, whether it has dates or not.
    static let models: [any (Decodable & Sendable).Type] = [
        JWSTransactionDecodedPayload.self, JWSRenewalInfoDecodedPayload.self, AppTransaction.self,
        ResponseBodyV2DecodedPayload.self, NotificationData.self, Summary.self, ExternalPurchaseToken.self,
        AppData.self, DecodedRealtimeRequestBody.self, AdvancedCommerceTransactionInfo.self,
        AdvancedCommerceTransactionItem.self, AdvancedCommerceRenewalInfo.self, AdvancedCommerceRenewalItem.self,
        AdvancedCommerceDescriptors.self, AdvancedCommerceOffer.self, AdvancedCommerceRefund.self,
        AdvancedCommercePriceIncreaseInfo.self, TransactionCommitmentInfo.self, RenewalCommitmentInfo.self,
    ]

    /// JSON numbers of milliseconds: whole, fractional as StoreKit Testing in Xcode writes them, and negative.
    static let values = ["1698148900123", "1697679936049.7297", "1697679936056.485", "-62135769600000", "-1.5"]

    /// The date Apple's App Store Server Library decodes from a JSON number: `JSONDecoder` with the
    /// `.millisecondsSince1970` strategy.
    static func appleDate(_ number: String) throws -> Date {
        struct Member: Decodable { let value: Date }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try decoder.decode(Member.self, from: Data(#"{"value":\#(number)}"#.utf8)).value
    }

    /// A JSON object with keys sorted (as the tests' encoder writes them) holding every date of `field`'s model:
    /// `field` itself is `value`, and each other date a different number, so that an accessor reading a sibling's
    /// timestamp fails.
    static func json(_ field: DateField, _ value: String) -> Data {
        let siblings = fields.filter { $0.model == field.model }.map(\.key)
        let members = siblings.enumerated().map { index, key in
            (key, key == field.key ? value : String(1_600_000_000_000 + 1_000 * index))
        }
        let text = members.sorted { $0.0 < $1.0 }.map { #""\#($0.0)":\#($0.1)"# }.joined(separator: ",")
        return Data("{\(text)}".utf8)
    }

    /// Input: every model type, decoded from `{}`. Expected: each `Timestamp?` stored property is named after a
    /// date field of ``fields`` plus `Timestamp`, and ``fields`` lists no other; so the tests below cover every
    /// date and the naming is the same in every model.
    @Test("every stored timestamp is <Apple's name>Timestamp, and every one is tested here")
    func everyDateIsListed() throws {
        var stored = Set<String>()
        for model in Self.models {
            let empty = try JSONDecoder().decode(model, from: Data("{}".utf8))
            for child in Mirror(reflecting: empty).children where type(of: child.value) == Timestamp?.self {
                let label = try #require(child.label)
                #expect(label.hasSuffix("Timestamp"), "\(model).\(label)")
                stored.insert("\(model).\(label.dropLast("Timestamp".count))")
            }
        }
        #expect(stored == Set(Self.fields.map(\.testDescription)))
        #expect(Self.fields.count == stored.count, "a field is listed twice")
    }

    /// Input: the model's JSON with this date set to each of ``values`` and its other dates set to other numbers.
    /// Expected: the timestamp is that number exactly, and the `Date` accessor is the timestamp's date, which is
    /// the date Apple's library decodes from the number.
    @Test("the Date accessor is the timestamp's date, as Apple's library decodes it", arguments: fields, values)
    func accessorIsTimestampDate(field: DateField, value: String) throws {
        let (date, timestamp) = try field.read(Self.json(field, value))
        let milliseconds = try #require(Double(value))
        #expect(timestamp == Timestamp(millisecondsSince1970: milliseconds), "\(field)")
        #expect(date == timestamp?.date, "\(field)")
        #expect(date == Date(timeIntervalSince1970: milliseconds / 1000), "\(field)")
        #expect(date == (try Self.appleDate(value)), "\(field)")
    }

    /// Input: the model's JSON (keys sorted) with this date fractional, negative or whole. Expected: `JSONEncoder`
    /// writes the same bytes back, and the tree (`jsonValue`, what the CLI prints) is the input's tree.
    @Test("a decoded date encodes back byte for byte", arguments: fields, values)
    func roundTrip(field: DateField, value: String) throws {
        let json = Self.json(field, value)
        let (text, tree) = try field.reencode(json)
        #expect(text == String(decoding: json, as: UTF8.self), "\(field)")
        #expect(tree == (try JSONDecoder().decode(JSONValue.self, from: json)), "\(field)")
    }

    /// Input: a decoded model whose date is Xcode's `1697679936049.7297`; its `Date` accessor set to
    /// 2023-11-14T22:13:20.25Z, then to `nil`. Expected: the timestamp becomes 1700000000250, which encoding
    /// writes; then `nil`, and the key is not written.
    @Test("setting the Date accessor sets the timestamp", arguments: fields)
    func settingTheDate(field: DateField) throws {
        let json = Self.json(field, "1697679936049.7297")
        let later = try field.set(json) { _ in Date(timeIntervalSince1970: 1_700_000_000.25) }
        #expect(later.timestamp == Timestamp(millisecondsSince1970: 1_700_000_000_250), "\(field)")
        #expect(later.json.contains(#""\#(field.key)":1700000000250"#), "\(field): \(later.json)")

        let removed = try field.set(json) { _ in nil }
        #expect(removed.timestamp == nil, "\(field)")
        #expect(!removed.json.contains(#""\#(field.key)""#), "\(field): \(removed.json)")
    }

    /// Input: a decoded model whose date is `0.5` ms, which a `Date` can't hold exactly; the date read from the
    /// accessor assigned back to it. Expected: the timestamp stays `0.5` and encodes as `0.5`.
    @Test("assigning back the date read from the accessor keeps the exact timestamp", arguments: fields)
    func assigningTheSameDate(field: DateField) throws {
        let half = Timestamp(millisecondsSince1970: 0.5)
        try #require(Timestamp(half.date) != half, "0.5 ms must not survive a round trip through Date")
        let same = try field.set(Self.json(field, "0.5")) { $0 }
        #expect(same.timestamp == half, "\(field)")
        #expect(same.json.contains(#""\#(field.key)":0.5"#), "\(field): \(same.json)")
    }

    /// Input: models built by their initializers with a `0.5` ms timestamp, and with Xcode's and a negative value.
    /// Expected: the stored timestamps are those values exactly, which a `Date` parameter couldn't carry.
    @Test("the initializers take timestamps and keep them exactly")
    func initializersKeepTimestamps() throws {
        let half = Timestamp(millisecondsSince1970: 0.5)
        let xcode = Timestamp(millisecondsSince1970: 1_697_679_936_049.7297)
        let yearOne = Timestamp(millisecondsSince1970: -62_135_769_600_000)
        let transaction = JWSTransactionDecodedPayload(purchaseDateTimestamp: half, expiresDateTimestamp: xcode)
        #expect(transaction.purchaseDateTimestamp == half)
        #expect(transaction.expiresDateTimestamp == xcode)
        #expect(transaction.purchaseDate == half.date)
        #expect(try ModelJSON.encodedString(transaction) == #"{"expiresDate":1697679936049.7297,"purchaseDate":0.5}"#)
        let app = AppTransaction(originalPurchaseDateTimestamp: yearOne)
        #expect(app.originalPurchaseDate == Date(timeIntervalSince1970: -62_135_769_600))
        #expect(try ModelJSON.encodedString(app) == #"{"originalPurchaseDate":-62135769600000}"#)
    }

    /// Input: two transactions with the same date as `Date` but timestamps 0.5 ms and the timestamp of that date.
    /// Expected: they differ: equality and hashing compare the exact timestamps, not the accessors.
    @Test("equality compares the timestamps")
    func equalityComparesTimestamps() {
        let half = Timestamp(millisecondsSince1970: 0.5)
        let exact = JWSTransactionDecodedPayload(purchaseDateTimestamp: half)
        let viaDate = JWSTransactionDecodedPayload(purchaseDateTimestamp: Timestamp(half.date))
        #expect(exact.purchaseDate == viaDate.purchaseDate)
        #expect(exact != viaDate)
    }
}

/// One date field of one model: its JSON key, its `Date` accessor and its stored timestamp, each reached
/// through the model's own `Codable` (the path the verifier decodes with), so that one table covers every model.
struct DateField: Sendable, CustomTestStringConvertible, CustomStringConvertible {
    /// The model's type name.
    let model: String
    /// The JSON key, which is also the `Date` accessor's name.
    let key: String
    /// Decodes JSON as the model; returns the accessor's date and the stored timestamp.
    let read: @Sendable (Data) throws -> (date: Date?, timestamp: Timestamp?)
    /// Decodes JSON as the model and sets the accessor to `change` of its date; returns the stored timestamp and
    /// the JSON `JSONEncoder` writes (keys sorted).
    let set: @Sendable (Data, _ change: (Date?) -> Date?) throws -> (timestamp: Timestamp?, json: String)
    /// Decodes JSON as the model; returns the JSON `JSONEncoder` writes (keys sorted) and the model's tree.
    let reencode: @Sendable (Data) throws -> (json: String, tree: JSONValue)

    init<Model: Codable & Sendable & JSONObjectEncodable>(
        _: Model.Type, _ key: String, _ date: WritableKeyPath<Model, Date?> & Sendable,
        _ timestamp: KeyPath<Model, Timestamp?> & Sendable
    ) {
        model = "\(Model.self)"
        self.key = key
        read = { json in
            let decoded = try JSONDecoder().decode(Model.self, from: json)
            return (decoded[keyPath: date], decoded[keyPath: timestamp])
        }
        set = { json, change in
            var decoded = try JSONDecoder().decode(Model.self, from: json)
            decoded[keyPath: date] = change(decoded[keyPath: date])
            return (decoded[keyPath: timestamp], try ModelJSON.encodedString(decoded))
        }
        reencode = { json in
            let decoded = try JSONDecoder().decode(Model.self, from: json)
            return (try ModelJSON.encodedString(decoded), decoded.jsonValue)
        }
    }

    var testDescription: String { "\(model).\(key)" }
    var description: String { testDescription }
}
