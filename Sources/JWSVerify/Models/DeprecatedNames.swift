/// The former name of ``AppStoreEnvironment``, kept so that existing code compiles.
///
/// Apple's App Store Server Library calls the type `AppStoreEnvironment`, and `Environment` clashes
/// with the types of that name in Vapor and SwiftUI.
@available(*, deprecated, renamed: "AppStoreEnvironment")
public typealias Environment = AppStoreEnvironment
