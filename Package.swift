// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "comment-tui",
    products: [
        .executable(name: "comment-tui", targets: ["comment-tui"]),
        .library(name: "CommentTUI", targets: ["CommentTUI"]),
        .library(name: "ThreadModel", targets: ["ThreadModel"]),
        .library(name: "ScrollEngine", targets: ["ScrollEngine"]),
    ],
    targets: [
        // libncursesw through a module map and a shim header; no pkg-config needed.
        .systemLibrary(name: "CNCursesW", path: "Sources/CNCursesW"),
        // Linux calls Swift cannot import directly (prctl and syscall are variadic), as inline functions.
        .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
        // libcurl for Matrix's HTTP (System/HTTPExchange): a shim header types the variadic setopt.
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // OpenSSL 3's libcrypto for MatrixCrypto's primitives (Primitives/LibCrypto only).
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", providers: [.apt(["libssl-dev"])]),
        .target(name: "ThreadModel", dependencies: ["CLinux"]),
        // End-to-end encryption: Olm, Megolm, signing, encodings; no UI, clock or network.
        .target(name: "MatrixCrypto", dependencies: ["COpenSSL", "ThreadModel"]),
        .target(name: "ScrollEngine"),
        .target(name: "CommentTUI", dependencies: ["CNCursesW", "CLinux", "CCurl", "ThreadModel", "ScrollEngine", "MatrixCrypto"]),
        .executableTarget(name: "comment-tui", dependencies: ["CommentTUI"]),
        .executableTarget(
            name: "comment-tui-bench",
            dependencies: ["CommentTUI", "ScrollEngine", "ThreadModel", "SynapseFixture", "MatrixCrypto"],
            path: "Sources/Benchmarks"
        ),
        .testTarget(name: "ThreadModelTests", dependencies: ["ThreadModel", "PlantedFileTestSupport"], resources: [.copy("Data")]),
        .testTarget(name: "ScrollEngineTests", dependencies: ["ScrollEngine", "ThreadModel"]),
        // Debian's libolm, only as the oracle MatrixCrypto's tests compare against; never shipped.
        .systemLibrary(name: "COlm", path: "Tests/COlm", providers: [.apt(["libolm-dev"])]),
        // The crypto store's kill test spawns this writer and SIGKILLs it; depended on so it is built.
        .executableTarget(name: "crypto-store-writer", dependencies: ["MatrixCrypto"], path: "Tests/CryptoStoreWriter"),
        .testTarget(name: "MatrixCryptoTests", dependencies: ["MatrixCrypto", "COlm", "ThreadModel", "crypto-store-writer"]),
        // Helpers for tests: the screen assertion (text and styles from lines).
        .target(
            name: "CommentTUITestSupport",
            dependencies: ["CommentTUI", "ThreadModel", "ScrollEngine", "SynapseFixture"],
            path: "Tests/CommentTUITestSupport"
        ),
        // What a test plants where state files go (a victim file links point to), for both layers.
        .target(name: "PlantedFileTestSupport", dependencies: ["ThreadModel"], path: "Tests/PlantedFileTestSupport"),
        // The encrypted send kill test spawns this client and SIGKILLs it; depended on so it is built.
        .executableTarget(name: "encrypted-room-sender", dependencies: ["CommentTUI", "MatrixCrypto", "ThreadModel"], path: "Tests/EncryptedRoomSender"),
        .testTarget(
            name: "CommentTUITests",
            dependencies: ["CommentTUI", "ThreadModel", "ScrollEngine", "CommentTUITestSupport", "SynapseFixture", "PlantedFileTestSupport",
                           "encrypted-room-sender"],
            resources: [.copy("Data")]
        ),
        // A real Synapse homeserver (pinned, from PyPI, in .synapse/venv) and a plain Matrix client for tests.
        .target(name: "SynapseFixture", path: "Tests/SynapseFixture"),
        .testTarget(name: "SynapseFixtureTests", dependencies: ["SynapseFixture"]),
        // ncurses and real-terminal (tmux) tests; depends on the executable so it is built.
        .testTarget(
            name: "TerminalTests",
            dependencies: ["CommentTUI", "ThreadModel", "comment-tui", "CommentTUITestSupport", "SynapseFixture"]
        ),
    ]
)
