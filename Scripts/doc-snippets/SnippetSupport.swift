// Compiled by Scripts/doc-snippets.sh as the module SnippetSupport, which every snippet module imports.
//
// The names a documentation snippet uses for "your code": the token your server received, what it does
// with a verified payload. None of it runs: the snippets are compiled, not executed. A snippet that
// declares one of these names itself uses its own (a module's declarations shadow imported ones).
// Generic parameter packs take any arguments without the implicit `Any` coercion warnings.
import Foundation
import JWSVerify

// MARK: Values a server has at hand

/// A transaction token, as the app sent it.
public let signedTransactionInfo = ""
/// A transaction token (the label of Apple's method).
public let signedTransaction = ""
/// A notification's or realtime request's token.
public let signedPayload = ""
/// A token of any kind.
public let token = ""
/// An app receipt, base64.
public let receiptBase64 = ""
/// The body of the POST request Apple sent.
public let requestBody = Data()
/// The body of the POST request Apple sent.
public let body = Data()
/// Root certificates, DER.
public let roots: [Data] = []
/// A verifier made at start-up.
public var verifier: SignedDataVerifier { fatalError("documentation snippets are compiled, not run") }
/// A verified transaction.
public var verified: Verified<JWSTransactionDecodedPayload> {
    fatalError("documentation snippets are compiled, not run")
}

// MARK: What a server does with the outcome

/// Grants what was bought.
public func grant<each Value>(_ values: repeat each Value) {}
/// Grants what was bought, recording the environment it was bought in.
public func grant<each Value>(_ values: repeat each Value, environment: AppStoreEnvironment?) {}
/// Grants a product of a transaction.
public func grant<each Value, Transaction>(_ values: repeat each Value, transaction: Transaction) {}
/// Grants access.
public func grantAccess() {}
/// Refuses the request.
public func reject<each Value>(_ values: repeat each Value) {}
/// Writes a log line.
public func log<each Value>(_ values: repeat each Value) {}
/// Handles a payload.
public func handle<Payload>(_ payload: Payload) {}
/// Handles a notification and its transaction.
public func handle<Notification, Transaction>(_ notification: Notification, transaction: Transaction) {}
/// Stores a notification.
public func store<Payload>(_ payload: Payload, environment: AppStoreEnvironment?) {}
/// Answers the HTTP request with a status.
public func answer(_ status: Int) {}
