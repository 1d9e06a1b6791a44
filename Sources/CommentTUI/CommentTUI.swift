import ThreadModel
import ScrollEngine
public enum CommentTUIVersion { public static let value = "0.1.0" }
