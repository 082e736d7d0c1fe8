/// Apple's name for ``NotificationRequestBody``: the JSON body Apple posts to a notification URL.
///
/// Apple's App Store Server Library calls the body `ResponseBodyV2`, after the App Store Server
/// Notifications documentation; every other model of signed data has the same name in both libraries
/// (Docs/Migrating-from-Apple.md). Unlike Apple's, its ``NotificationRequestBody/signedPayload`` is never
/// nil: ``NotificationRequestBody/init(httpBody:maximumTokenBytes:)`` throws for a body without one.
public typealias ResponseBodyV2 = NotificationRequestBody
