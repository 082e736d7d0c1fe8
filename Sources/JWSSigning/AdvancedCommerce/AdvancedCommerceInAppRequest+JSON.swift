import Foundation

extension AdvancedCommerceInAppRequest {
    /// The request's JSON as the signature's `request` claim carries it (before base64): compact, keys sorted,
    /// UUIDs in lower case, slashes unescaped.
    ///
    /// - Throws: ``AdvancedCommerceValidationError`` when a value breaks one of Apple's rules (a value changed
    ///   after the request was made), or the `EncodingError` of `JSONEncoder`.
    public func jsonData() throws -> Data {
        try AppStoreJSON.encode(self)
    }
}
