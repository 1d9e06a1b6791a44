/// The looks of the fading effects, from what the terminal has: colour ramps on a 256-colour
/// terminal, attribute steps (reverse, bold, dim) on one with eight colours or none.
struct EffectPalette: Equatable, Sendable {
    /// The colours the terminal has (ncurses' `COLORS`; 0 without colour).
    var colorCount: Int

    /// Steps of every fade: a frame is drawn only when the step changes.
    static let rampSteps = 6
    /// Columns behind an arrival's edge drawn fainter, so the text comes in rather than jumps.
    static let arrivalEdge = 4

    // Backgrounds from the magenta of a mention to the near-black of the feed, and from a
    // flash of amber to the same; grey foregrounds for an arrival's soft edge.
    private static let glowRamp: [UInt8] = [127, 91, 90, 54, 53, 235]
    private static let flashRamp: [UInt8] = [220, 178, 136, 94, 58, 236]
    private static let edgeRamp: [UInt8] = [238, 242, 246, 250]

    private var hasRamps: Bool { colorCount >= 256 }

    /// The ramp's step at `progress` (a hair early, so a frame asked for at a step's boundary
    /// shows the new step whatever the rounding of the times).
    private static func step(_ progress: Double) -> Int { min(rampSteps - 1, Int(progress * Double(rampSteps) + 1e-9)) }

    /// The header of a comment that mentions the reader, `progress` into its fade.
    func glow(_ style: inout CellStyle, progress: Double) {
        guard progress < 1 else { return }
        let step = Self.step(progress)
        if hasRamps {
            style.background = .palette(Self.glowRamp[step])
        } else {
            style.attributes.insert(step < 2 ? .reverse : step < 4 ? .bold : .dim)
        }
    }

    /// The header of the comment a jump went to, `progress` into its flash.
    func flash(_ style: inout CellStyle, progress: Double) {
        guard progress < 1 else { return }
        let step = Self.step(progress)
        if hasRamps {
            style.background = .palette(Self.flashRamp[step])
            style.foreground = step < 3 ? .black : style.foreground
        } else if step < 3 {
            style.attributes.insert(.reverse)
        } else if step < 5 {
            style.attributes.insert(.bold)
        }
    }

    /// A cell `distance` columns behind an arriving comment's edge (0: the cell at the edge).
    func arrivalEdge(_ style: inout CellStyle, distance: Int) {
        guard distance < Self.arrivalEdge else { return }
        if hasRamps {
            style.foreground = .palette(Self.edgeRamp[max(0, min(Self.edgeRamp.count - 1, distance))])
        } else {
            style.attributes.insert(.dim)
        }
    }
}
