/// Receipt check 9, **claims** (`invalidAppIdentifier`, `invalidEnvironment`): the bundle id (field 2),
/// the app item id (field 1) against the app Apple id in Production when one is configured, then the
/// receipt type (field 0: `Production`, `ProductionSandbox`, `Xcode`...) against the environments, by
/// the same rules as a token's claims (``ClaimsCheck``).
extension AppReceipt {
    /// The receipt's claims in the shape ``ClaimsCheck`` checks.
    var claims: PayloadClaims {
        PayloadClaims(
            checksBundleId: true, checksAppAppleId: true, bundleId: bundleId, appAppleId: appItemId,
            environment: environment, environmentField: "receipt type (field 0)")
    }
}
