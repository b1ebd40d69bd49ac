// swift-tools-version:6.0
import PackageDescription

/// `ENTITLE_TSAN_SDK=1` compiles the SDK (AccessEnabler) with ThreadSanitizer and links the sanitizer's runtime, leaving
/// every other module as it is: the last phase of scripts/test.sh runs the SDK's tests and flows that way on the same
/// build directory, recompiling only the SDK and what depends on it instead of the whole service.
let sdkThreadSanitizer: [String] = Context.environment["ENTITLE_TSAN_SDK"] == "1" ? ["-sanitize=thread"] : []

let package = Package(
    name: "Entitle",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17)],
    products: [
        .executable(name: "entitle", targets: ["entitle"]),
        .library(name: "AccessEnabler", targets: ["AccessEnabler"]),
        .library(name: "MediaTokenVerifier", targets: ["MediaTokenVerifier"]),
        .library(name: "MediaTokenReplaySQL", targets: ["MediaTokenReplaySQL"]),
        .library(name: "EntitleCore", targets: ["EntitleCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.1.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.2.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "5.0.1"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.1"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64.git", from: "1.2.0"),
    ],
    targets: [
        .target(
            name: "EntitleCore",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                // Base64 into byte buffers for media tokens (already in the graph through jwt-kit).
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
            ]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CQREncode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // RSA signing through the system's OpenSSL libcrypto (faster than BoringSSL's on this hardware); Linux only.
        .systemLibrary(name: "COpenSSL", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "SystemRSA", dependencies: [.target(name: "COpenSSL", condition: .when(platforms: [.linux]))]),
        // QR codes for the terminal (`entitle device`), made by libqrencode.
        .target(name: "TerminalQR", dependencies: ["CQREncode"]),
        .target(
            name: "SAML",
            dependencies: [
                "CLibXML2", "CZlib", "EntitleCore",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]),
        .target(
            name: "AccessEnabler",
            dependencies: [
                "EntitleCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: [.unsafeFlags(sdkThreadSanitizer)],
            linkerSettings: [.unsafeFlags(sdkThreadSanitizer)]),
        .target(
            name: "MediaTokenVerifier",
            dependencies: [
                "EntitleCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
            ]),
        .target(
            name: "MediaTokenReplaySQL",
            dependencies: [
                "MediaTokenVerifier",
                .product(name: "SQLKit", package: "sql-kit"),
            ]),
        .target(
            name: "DemoMVPD",
            dependencies: [
                "EntitleCore", "SAML",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ]),
        // The service in layers the compiler keeps apart (docs/architecture.md):
        // EntitleModel (records, store protocols) ← EntitleStorage (SQL, migrations, caches of stored data)
        // ← EntitleDomain (domain services, operations, MVPD clients, keys, the composition root) ← EntitleHTTP (controllers,
        // middleware, v1, adobe-services, admin API, console, pages). EntitleHTTP and the CLI do not depend on EntitleStorage.
        // The build fails when a layer imports what it must not (see LayerCheck's table), though the dependency closure would
        // allow it.
        .executableTarget(name: "layer-check"),
        .plugin(name: "LayerCheck", capability: .buildTool(), dependencies: ["layer-check"]),
        .target(
            name: "EntitleModel",
            dependencies: [
                "EntitleCore",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")],
            plugins: ["LayerCheck"]),
        .target(
            name: "EntitleStorage",
            dependencies: [
                "EntitleCore", "EntitleModel",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")],
            plugins: ["LayerCheck"]),
        .target(
            name: "EntitleDomain",
            dependencies: [
                "EntitleCore", "EntitleModel", "EntitleStorage", "SAML", "SystemRSA",
                .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            // The service's nonisolated async functions run on their caller's executor (SE-0461), in all four targets: a
            // decision does not switch executors on each call into and return from them (docs/architecture.md).
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")],
            plugins: ["LayerCheck"]),
        .target(
            name: "EntitleHTTP",
            dependencies: [
                "EntitleCore", "EntitleModel", "EntitleDomain", "SAML",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                // The catalog as YAML (`GET /admin/api/catalog`, `entitle admin catalog`).
                .product(name: "Yams", package: "Yams"),
            ], resources: [.copy("Resources/openapi.json"), .copy("Resources/console"), .copy("Resources/templates")],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault"), .enableUpcomingFeature("MemberImportVisibility")],
            plugins: ["LayerCheck"]),
        .target(
            name: "EntitleHost",
            dependencies: [
                "EntitleCore", "EntitleModel", "EntitleStorage", "EntitleDomain", "EntitleHTTP", "DemoMVPD", "SAML",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Plain HTTP clients of the service (REST v2 + DCR, a cookie-keeping browser, the DemoMVPD sign-in), used by
        // `entitle bench` and the tests.
        .target(
            name: "EntitleClients",
            dependencies: [
                "EntitleCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]),
        // Test support: child processes by posix_spawn (Foundation's Process crashes under load on Linux).
        .target(name: "CChildProcess"),
        .target(name: "ChildProcess", dependencies: ["CChildProcess"]),
        // Test support without the service: a log handler that keeps what it is given (DemoMVPDTests, EntitleServerTests).
        .target(name: "TestLogCapture", dependencies: [.product(name: "Logging", package: "swift-log")]),
        // Test support (not a product): the in-process service harness, the REST v1 client, the router harness.
        .target(
            name: "EntitleTesting",
            dependencies: [
                "EntitleCore", "EntitleModel", "EntitleStorage", "EntitleDomain", "EntitleHTTP", "EntitleHost", "EntitleClients", "ChildProcess",
                "SAML",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .executableTarget(
            name: "entitle",
            dependencies: [
                "EntitleCore", "EntitleModel", "EntitleDomain", "EntitleHTTP", "EntitleHost", "EntitleClients", "DemoMVPD",
                "AccessEnabler", "MediaTokenVerifier", "SAML",
                "TerminalQR", "SystemRSA", .target(name: "COpenSSL", condition: .when(platforms: [.linux])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            // Members of a module count only where it is imported: the CLI cannot use a storage type it reaches through
            // the host or the domain (it does not import EntitleStorage).
            swiftSettings: [.enableUpcomingFeature("MemberImportVisibility")],
            plugins: ["LayerCheck"]),
        .testTarget(name: "EntitleCoreTests", dependencies: ["EntitleCore"]),
        .testTarget(
            name: "SAMLTests",
            dependencies: [
                "SAML", "ChildProcess", .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "MediaTokenVerifierTests",
            dependencies: [
                "MediaTokenVerifier", "MediaTokenReplaySQL", "EntitleCore", "EntitleModel", "EntitleStorage", "EntitleDomain", "EntitleHTTP",
                "EntitleHost",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The verifier test vector (docs/media-token-verifier.md), read from the source tree.
            exclude: ["Fixtures"]),
        .testTarget(
            name: "AccessEnablerTests",
            dependencies: [
                "AccessEnabler", "EntitleClients",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]),
        .testTarget(
            name: "BrowserTests",
            dependencies: [
                "AccessEnabler", "EntitleHost", "EntitleModel", "EntitleStorage", "EntitleDomain", "EntitleHTTP", "EntitleCore", "EntitleClients",
                "EntitleTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "AccessEnabler", "EntitleHost", "EntitleModel", "EntitleStorage", "EntitleDomain", "EntitleHTTP", "EntitleCore", "MediaTokenVerifier",
                "EntitleClients", "EntitleTesting",
                "ChildProcess",
                "TerminalQR",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            // The upgrade fixture (Tests/Support/make-upgrade-fixture.sh), read from the source tree.
            exclude: ["Fixtures"]),
        .testTarget(name: "AdobeStyleDelegateTests", dependencies: ["AccessEnabler", "EntitleHost", "EntitleClients", "EntitleTesting"]),
        .testTarget(
            name: "DemoMVPDTests",
            dependencies: [
                "DemoMVPD", "SAML", "TestLogCapture",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]),
        .testTarget(
            name: "EntitleServerTests",
            dependencies: [
                "EntitleModel", "EntitleStorage", "EntitleDomain", "EntitleHTTP", "EntitleHost", "DemoMVPD", "SAML", "EntitleCore",
                "MediaTokenVerifier", "EntitleClients", "EntitleTesting",
                "TestLogCapture", "ChildProcess",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]),
    ]
)
