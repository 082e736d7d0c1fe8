import Foundation

extension TokenMinter {
    /// Why ``mintLines(_:parameters:overrides:count:linesPerWrite:write:)`` stopped: the token that could not be
    /// signed, and why.
    public struct LineFailure: Error {
        /// The index of the token, from 0.
        public var index: Int
        /// Why it could not be signed.
        public var underlying: any Error
    }

    /// Mints `count` tokens of `kind` as ``mint(_:parameters:overrides:count:)`` does (one seed for them all, drawn
    /// once when `parameters.seed` is nil, so that they differ by their index), and hands them to `write`, each
    /// followed by a newline, `linesPerWrite` at a time: memory stays flat whatever `count` (`jwsverify mint token`).
    ///
    /// - Throws: ``LineFailure`` for the first token that cannot be signed; the tokens before it have been written.
    public func mintLines(
        _ kind: TestPayloadKind, parameters: PayloadParameters = PayloadParameters(),
        overrides: PayloadOverrides = PayloadOverrides(), count: Int, linesPerWrite: Int = 64,
        write: (String) -> Void
    ) throws(LineFailure) {
        var parameters = parameters
        if parameters.seed == nil { parameters.seed = UInt64.random(in: .min ... .max) }
        var pending = ""
        for index in 0..<max(count, 0) {
            do {
                pending +=
                    try sign(overrides.apply(to: defaultPayload(kind, parameters: parameters, index: index))) + "\n"
            } catch {
                write(pending)
                throw LineFailure(index: index, underlying: error)
            }
            if (index + 1) % max(linesPerWrite, 1) == 0 {
                write(pending)
                pending = ""
            }
        }
        if !pending.isEmpty { write(pending) }
    }
}
