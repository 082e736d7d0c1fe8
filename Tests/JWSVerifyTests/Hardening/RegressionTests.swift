import Foundation
import Testing

@testable import JWSVerify

/// Every input saved in `Fuzz/regressions/<target>/` runs through the same entry point as the fuzz
/// target `<target>` (`FuzzEntryPoints`, shared with `Fuzz/Sources/FuzzHarness` by a symbolic link),
/// so that a crash or a broken property found by fuzzing stays fixed. The entry points stop the
/// process on a broken property, as they do under libFuzzer.
@Suite("Fuzz regressions")
struct RegressionTests {
    /// `Fuzz/regressions`, found by walking up from this file.
    static let folder: URL? = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("Fuzz/regressions")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        return nil
    }()

    /// `target/file` for every saved input.
    static let inputs: [String] = {
        guard let folder else { return [] }
        var inputs: [String] = []
        for target in FuzzEntryPoints.targets.keys.sorted() {
            let files =
                (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(target).path)) ?? []
            inputs += files.filter { !$0.hasPrefix(".") }.sorted().map { "\(target)/\($0)" }
        }
        return inputs
    }()

    /// Input: each file of `Fuzz/regressions/<target>/`. Expected: its target's entry point returns
    /// (no crash, no broken property).
    @Test("a saved fuzz input runs through its target without failing", arguments: inputs)
    func savedInput(_ input: String) throws {
        let folder = try #require(Self.folder)
        let target = String(input.prefix { $0 != "/" })
        let entryPoint = try #require(FuzzEntryPoints.targets[target], "no fuzz target \(target)")
        let bytes = try Data(contentsOf: folder.appendingPathComponent(input))
        entryPoint(Array(bytes))
    }

    /// Input: the folder of saved inputs. Expected: it exists and has one folder per fuzz target.
    @Test("every fuzz target has a regressions folder")
    func foldersExist() throws {
        let folder = try #require(Self.folder, "Fuzz/regressions not found")
        for target in FuzzEntryPoints.targets.keys {
            var isDirectory: ObjCBool = false
            #expect(
                FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(target).path, isDirectory: &isDirectory))
            #expect(isDirectory.boolValue, "Fuzz/regressions/\(target) is not a folder")
        }
    }

    /// Input: every generated vector, as a token and as its decoded payload JSON. Expected: all four
    /// entry points accept each without failing (the harness itself works in a normal test run).
    @Test("every generated vector runs through all fuzz entry points")
    func generatedVectorsRunThroughEveryTarget() throws {
        for vector in FuzzVectors.generatedTokens {
            let token = Array(vector.token.utf8)
            for target in ["jws-parser", "verifier", "inspect"] {
                FuzzEntryPoints.targets[target]?(token)
            }
            let segments = vector.token.split(separator: ".", omittingEmptySubsequences: false)
            if segments.count == 3, let payload = Base64.decodeURL(segments[1]) {
                FuzzEntryPoints.models(payload)
                FuzzEntryPoints.jwsParser(payload)
            }
        }
    }
}
