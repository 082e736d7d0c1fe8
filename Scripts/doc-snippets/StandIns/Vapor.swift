// A stand-in for the few Vapor 4 (and SwiftNIO) declarations that Docs/Receiving-notifications.md's Vapor
// sketch uses, with Vapor's names and signatures, so that Scripts/doc-snippets.sh compiles the sketch
// without fetching Vapor. Nothing here runs. Keep it to what the documentation uses.

/// NIO's byte buffer; only what the sketch reads.
public struct ByteBuffer: Sendable {
    /// The readable bytes (NIO's `ByteBufferView`, a collection of `UInt8`).
    public var readableBytesView: [UInt8] { [] }
}

/// An HTTP method.
public struct HTTPMethod: Sendable {
    /// POST.
    public static let POST = HTTPMethod()
}

/// A route's path component.
public struct PathComponent: ExpressibleByStringLiteral, Sendable {
    public init(stringLiteral value: String) {}
}

/// A body size, written "16kb".
public struct ByteCount: ExpressibleByStringLiteral, Sendable {
    public init(stringLiteral value: String) {}
}

/// How a route reads its request's body.
public enum HTTPBodyStreamStrategy: Sendable {
    case stream
    case collect(maxSize: ByteCount?)
}

/// An HTTP response status (NIO's `HTTPResponseStatus`).
public struct HTTPStatus: Sendable {
    public init(statusCode: Int, reasonPhrase: String = "") {}
    public static let badRequest = HTTPStatus(statusCode: 400)
}

/// An incoming request.
public final class Request: Sendable {
    /// The request's body.
    public struct Body: Sendable {
        /// The collected body, when the route collects it.
        public var data: ByteBuffer? { nil }
    }
    public var body: Body { Body() }
}

/// A route.
public final class Route: Sendable {}

/// The application.
public final class Application: Sendable {
    /// Registers a route.
    @discardableResult
    public func on(
        _ method: HTTPMethod, _ path: PathComponent..., body: HTTPBodyStreamStrategy = .stream,
        use closure: @Sendable @escaping (Request) async throws -> HTTPStatus
    ) -> Route { Route() }
}
