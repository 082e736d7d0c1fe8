import Foundation
import JWSSigning
import JWSVerify
import Testing

/// The JSON of every answer body and Advanced Commerce request, read by the models of Apple's Python library
/// (PyPI `app-store-server-library`, through `Scripts/apple_models.py` in the virtual environment that
/// `Scripts/apple-python-venv.sh` makes or reuses under `.build/`). Skipped, with a message, where Python or pip
/// cannot provide it.
@Suite("Apple's Python models read what JWSSigning writes")
struct AppleModelsTests {
    /// Input: each shape of answer body, each of Apple's Advanced Commerce request files as this library encodes it,
    /// and a modification with every member. Expected: Apple's models accept each and encode it back to the same
    /// JSON value (lower-case UUIDs, absent members left out, the same `operation` and `version`).
    @Test("Apple's models decode each body and encode it back unchanged")
    func appleModelsAgree() throws {
        guard let python = ApplePythonModels.python() else { return }
        var cases: [(model: String, name: String, json: Data)] = []
        for (name, body) in try RealtimeAnswers.all() {
            cases.append(("RealtimeResponseBody", name, try body.jsonData()))
        }
        for vector in AdvancedCommerceVector.all where vector.file.hasSuffix("Request.json") {
            let model = String(vector.file.dropLast(".json".count)).capitalizedFirst
            cases.append((model, vector.file, try vector.reencode(try SigningTestVectors.appleAPI(vector.file))))
        }
        cases.append(
            (
                "AdvancedCommerceSubscriptionModifyInAppRequest", "full modification",
                try AdvancedCommerceTestValues.fullModification().jsonData()
            ))
        let answers = try ApplePythonModels.roundTrip(cases.map { ($0.model, $0.json) }, python: python)
        try #require(answers.count == cases.count)
        for (testCase, answer) in zip(cases, answers) {
            #expect(answer == (try SigningTestVectors.tree(testCase.json)), "\(testCase.name)")
        }
    }

    /// Input: bodies that break Apple's rules (a 46-character description, an offer of 13 periods, an empty list
    /// of items). Expected: this library refuses each with its code, and Apple's models refuse each too.
    @Test("Apple's models refuse what the validation refuses")
    func appleModelsRefuseTheSame() throws {
        guard let python = ApplePythonModels.python() else { return }
        let item: [String: JSONValue] = [
            "SKU": .string("sku"), "description": .string(String(repeating: "A", count: 46)),
            "displayName": .string("n"), "price": .integer(1),
        ]
        let offer: [String: JSONValue] = [
            "period": .string("P1W"), "periodCount": .integer(13), "price": .integer(1), "reason": .string("WIN_BACK"),
        ]
        var modify = try SigningTestVectors.object(
            try SigningTestVectors.appleAPI("advancedCommerceSubscriptionModifyInAppRequest.json"))
        modify["addItems"] = .array([])
        let cases: [(model: String, json: Data, code: AdvancedCommerceValidationError.Code)] = [
            (
                "AdvancedCommerceSubscriptionCreateItem", try JSONEncoder().encode(JSONValue.object(item)),
                .stringTooLong
            ),
            ("AdvancedCommerceOffer", try JSONEncoder().encode(JSONValue.object(offer)), .outOfRange),
            (
                "AdvancedCommerceSubscriptionModifyInAppRequest", try JSONEncoder().encode(JSONValue.object(modify)),
                .emptyList
            ),
        ]
        #expect(throws: AdvancedCommerceValidationError(code: .stringTooLong, field: "", message: "")) {
            _ = try JSONDecoder().decode(AdvancedCommerceSubscriptionCreateItem.self, from: cases[0].json)
        }
        var offerItem = item
        offerItem["description"] = .string("d")
        offerItem["offer"] = .object(offer)
        #expect(throws: AdvancedCommerceValidationError(code: .outOfRange, field: "", message: "")) {
            _ = try JSONDecoder().decode(
                AdvancedCommerceSubscriptionCreateItem.self, from: try JSONEncoder().encode(JSONValue.object(offerItem))
            )
        }
        #expect(throws: AdvancedCommerceValidationError(code: .emptyList, field: "", message: "")) {
            _ = try JSONDecoder().decode(AdvancedCommerceSubscriptionModifyInAppRequest.self, from: cases[2].json)
        }
        let answers = try ApplePythonModels.roundTrip(cases.map { ($0.model, $0.json) }, python: python)
        for (testCase, answer) in zip(cases, answers) {
            #expect(answer == nil, "\(testCase.model) (\(testCase.code)): Apple's model accepted it")
        }
    }
}

extension String {
    /// The text with its first letter upper case (`advancedCommerceOffer` → `AdvancedCommerceOffer`).
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}

/// Apple's Python models, run by `Scripts/apple_models.py`.
enum ApplePythonModels {
    /// The python of `Scripts/apple-python-venv.sh`, or nil (after printing why) when it cannot be made.
    static func python() -> URL? {
        let script = SigningTestVectors.root.appendingPathComponent("Scripts/apple-python-venv.sh")
        let (status, output) = run(URL(fileURLWithPath: "/bin/bash"), [script.path], input: nil)
        let text = String(decoding: output, as: UTF8.self)
        guard status == 0, let path = text.split(separator: "\n").last(where: { $0.hasPrefix("/") }) else {
            print("AppleModelsTests skipped: Apple's Python library is unavailable: \(text.suffix(300))")
            return nil
        }
        return URL(fileURLWithPath: String(path))
    }

    /// Each body decoded and encoded back by Apple's model of that name: the JSON it writes, or nil when the model
    /// refuses the body.
    static func roundTrip(_ cases: [(model: String, json: Data)], python: URL) throws -> [JSONValue?] {
        var input = Data()
        for (model, json) in cases {
            let line: JSONValue = .object(["model": .string(model), "json": try SigningTestVectors.tree(json)])
            input.append(try JSONEncoder().encode(line))
            input.append(UInt8(ascii: "\n"))
        }
        let script = SigningTestVectors.root.appendingPathComponent("Scripts/apple_models.py")
        let (status, output) = run(python, [script.path], input: input)
        try #require(status == 0, "apple_models.py exited with \(status): \(String(decoding: output, as: UTF8.self))")
        return try output.split(separator: UInt8(ascii: "\n")).map { line in
            guard case .object(let answer) = try SigningTestVectors.tree(Data(line)) else { return nil }
            return answer["json"]
        }
    }

    /// Runs a program with `input` on stdin; its status and stdout (stderr too when there is no input).
    private static func run(_ executable: URL, _ arguments: [String], input: Data?) -> (Int32, Data) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jwssigning-\(UUID().uuidString)")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        if input == nil { process.standardError = pipe }
        do {
            if let input {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let file = folder.appendingPathComponent("input.ndjson")
                try input.write(to: file)
                process.standardInput = try FileHandle(forReadingFrom: file)
            }
            defer { try? FileManager.default.removeItem(at: folder) }
            try process.run()
        } catch {
            return (-1, Data("\(error)".utf8))
        }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
