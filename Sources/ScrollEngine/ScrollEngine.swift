public enum ScrollEngineVersion { public static let value = "0.1" }
