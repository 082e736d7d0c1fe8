// A stand-in for the few Hummingbird 2 (and SwiftNIO, swift-http-types) declarations that
// Docs/Receiving-notifications.md's Hummingbird sketch uses, with their names and signatures, so that
// Scripts/doc-snippets.sh compiles the sketch without fetching Hummingbird. Nothing here runs. Keep it to
// what the documentation uses.

/// NIO's byte buffer; only what the sketch reads.
public struct ByteBuffer: Sendable {
    /// The readable bytes (NIO's `ByteBufferView`, a collection of `UInt8`).
    public var readableBytesView: [UInt8] { [] }
}

/// swift-http-types' response.
public struct HTTPResponse: Sendable {
    /// A response status.
    public struct Status: Sendable {
        public init(code: Int, reasonPhrase: String = "") {}
    }
}

/// A request's context.
public protocol RequestContext: Sendable {}

/// The default request context.
public struct BasicRequestContext: RequestContext {}

/// An incoming request.
public struct Request: Sendable {
    /// A request's body.
    public struct Body: Sendable {
        /// Collects the body, up to `maxSize` bytes.
        public func collect(upTo maxSize: Int) async throws -> ByteBuffer { ByteBuffer() }
    }
    public var body: Body { Body() }
}

/// A router.
public final class Router<Context: RequestContext>: Sendable {
    public init(context: Context.Type = BasicRequestContext.self) {}

    /// Registers a POST route.
    @discardableResult
    public func post(
        _ path: String, use closure: @Sendable @escaping (Request, Context) async throws -> HTTPResponse.Status
    ) -> Self { self }
}
