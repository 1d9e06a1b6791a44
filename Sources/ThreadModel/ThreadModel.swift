public enum ThreadModelVersion { public static let value = "0.1" }
