import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `write(2)`, named apart from ``FileOutput/write(_:to:)``.
private func posixWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

/// Small file helpers with explicit permissions.
enum FileOutput {
    /// Creates `directory` and its parents when missing.
    static func makeDirectory(_ directory: URL) throws {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw JWSTestingError.file(path: directory.path, message: "\(error)")
        }
    }

    /// Writes `data` to `url`, replacing it.
    static func write(_ data: Data, to url: URL) throws {
        do {
            try data.write(to: url, options: .atomic)
        } catch {
            throw JWSTestingError.file(path: url.path, message: "\(error)")
        }
    }

    /// Writes `text` as UTF-8 to `url`, replacing it.
    static func write(_ text: String, to url: URL) throws {
        try write(Data(text.utf8), to: url)
    }

    /// Writes a secret (a private key) readable and writable by the owner only (mode 0600). The file
    /// is created with that mode, so its contents are never readable by others, and an existing
    /// file's mode is tightened before writing.
    static func writeSecret(_ text: String, to url: URL) throws {
        let path = url.path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw JWSTestingError.file(path: path, message: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        guard fchmod(descriptor, 0o600) == 0 else {
            throw JWSTestingError.file(path: path, message: String(cString: strerror(errno)))
        }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { raw in
                posixWrite(descriptor, raw.baseAddress, raw.count)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw JWSTestingError.file(path: path, message: String(cString: strerror(errno)))
            }
            offset += written
        }
    }

    /// Writes a root, an intermediate and a leaf with their private key PEMs into `directory`
    /// (created when missing) under the names of ``TestHierarchy/FileName``: each certificate as DER and
    /// PEM, each key as a secret (mode 0600).
    static func writeHierarchy(
        _ certificates: (root: TestCertificate, intermediate: TestCertificate, leaf: TestCertificate),
        keyPEMs: (root: String, intermediate: String, leaf: String), to directory: URL
    ) throws {
        typealias Name = TestHierarchy.FileName
        try makeDirectory(directory)
        for (certificate, der, pem) in [
            (certificates.root, Name.rootDER, Name.rootPEM),
            (certificates.intermediate, Name.intermediateDER, Name.intermediatePEM),
            (certificates.leaf, Name.leafDER, Name.leafPEM),
        ] {
            try write(certificate.der, to: directory.appendingPathComponent(der))
            try write(certificate.pem, to: directory.appendingPathComponent(pem))
        }
        for (key, name) in [
            (keyPEMs.root, Name.rootKey), (keyPEMs.intermediate, Name.intermediateKey), (keyPEMs.leaf, Name.leafKey),
        ] {
            try writeSecret(key, to: directory.appendingPathComponent(name))
        }
    }

    /// The largest file read (a certificate, a key, a payload to merge: a few kilobytes).
    static let maximumFileBytes = 1 << 20

    /// Reads `url`: a regular file (a link to one is followed) of at most ``maximumFileBytes``, so that a FIFO or a
    /// device named by mistake neither blocks nor fills memory.
    static func read(_ url: URL) throws -> Data {
        let resolved = url.resolvingSymlinksInPath()
        do {
            let type = try FileManager.default.attributesOfItem(atPath: resolved.path)[.type] as? FileAttributeType
            guard type == .typeRegular else {
                throw JWSTestingError.file(path: url.path, message: "not a regular file")
            }
            let handle = try FileHandle(forReadingFrom: resolved)
            defer { try? handle.close() }
            let data = try handle.read(upToCount: maximumFileBytes + 1) ?? Data()
            guard data.count <= maximumFileBytes else {
                throw JWSTestingError.file(path: url.path, message: "larger than \(maximumFileBytes) bytes")
            }
            return data
        } catch let error as JWSTestingError {
            throw error
        } catch {
            throw JWSTestingError.file(path: url.path, message: "\(error)")
        }
    }

    /// Reads `url` as UTF-8 text.
    static func readText(_ url: URL) throws -> String {
        String(decoding: try read(url), as: UTF8.self)
    }
}
