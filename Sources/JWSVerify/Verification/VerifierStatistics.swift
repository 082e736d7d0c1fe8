extension SignedDataVerifier {
    /// Chain cache hits, misses and size, for tests and benchmarks.
    package var chainCacheStatistics: (hits: Int, misses: Int, count: Int) { chainCache.statistics }
    /// Cached chains whose leaf key has its fixed-base table: hot keys, after
    /// `PublicKey.fixedBaseThreshold` valid signatures (for tests and benchmarks).
    package var cachedLeafKeysWithFixedBaseTable: Int { chainCache.leafKeysWithFixedBaseTable }
    /// Intermediate cache hits and size, for tests and benchmarks.
    package var intermediateCacheStatistics: (hits: Int, count: Int) { anchor.intermediates?.statistics ?? (0, 0) }
    /// How many cached intermediates check new leaves with their key's fixed-base table (tests and
    /// benchmarks: proof that a hot intermediate gets one).
    package var cachedIntermediateKeysWithFixedBaseTable: Int { anchor.intermediates?.keysWithFixedBaseTable ?? 0 }
}
