/// A problem can be the failure of a `Result`, as `ThreadIndex.comment(at:)` gives for a line that does not decode.
extension ThreadFileProblem: Error {}
