//! Simple colouring, on grids up to 32x32: for one digit, the cells joined by conjugate pairs (the
//! digit's only two places in a house) split into two colours, exactly one of which is
//! true. Trap: a cell seeing both colours loses the digit. Wrap: a colour with two cells
//! in one house is false, so all its cells lose the digit.
//!
//! Multi-colours (HoDoKu's), two clusters of one digit, A (a1, a2) and B (b1, b2): when
//! a colour of A sees both colours of B it is false (type 2); when a1 sees b1 they are
//! not both true, so a2 or b2 is, and a cell seeing both loses the digit (type 1).

use super::board::{self, Bits, Board};
use super::{Emit, Step, Technique};

/// Conjugate-pair clusters of digit `d`, each as its two colours.
fn clusters<S: Bits>(b: &Board<S>, d: u8) -> Vec<(S, S)> {
    let t = b.tables();
    let dc = b.digit(d);
    // Conjugate neighbours of each cell.
    let mut link = S::per_cell(S::ZERO);
    for h in 0..t.houses {
        let pos = dc & t.house[h];
        if board::count(pos) == 2 {
            let x = board::first(pos);
            let y = board::first(pos.drop_first());
            link[x] |= S::bit(y);
            link[y] |= S::bit(x);
        }
    }
    let mut seen: S = S::ZERO;
    let mut out = Vec::new();
    for start in board::cells(dc) {
        if seen.has(start) || link[start] == S::ZERO {
            continue;
        }
        let (mut c0, mut c1): (S, S) = (S::bit(start), S::ZERO);
        let mut frontier = vec![(start, false)];
        seen |= S::bit(start);
        while let Some((c, colour)) = frontier.pop() {
            for n in board::cells(link[c]) {
                if seen.has(n) {
                    continue;
                }
                seen |= S::bit(n);
                if colour {
                    c0 |= S::bit(n);
                } else {
                    c1 |= S::bit(n);
                }
                frontier.push((n, !colour));
            }
        }
        out.push((c0, c1));
    }
    out
}

/// Simple colours: wrap first (a colour in conflict), then trap.
pub fn simple_colors<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    let t = b.tables();
    for d in b.digit_range() {
        for (c0, c1) in clusters(b, d) {
            for (bad, good) in [(c0, c1), (c1, c0)] {
                let conflict = (0..t.houses).any(|h| board::count(bad & t.house[h]) >= 2);
                if conflict {
                    let mut st = Step::new(Technique::SimpleColors);
                    st.digits = vec![d];
                    st.cells = board::cells(good).collect();
                    st.fins = board::cells(bad).collect();
                    st.eliminations = board::cells(bad).map(|c| (c, d)).collect();
                    st.name = Some("Simple Colors Wrap".into());
                    st.rating = 66;
                    if !emit(st) {
                        return false;
                    }
                }
            }
            let mut victims: S = S::ZERO;
            for c in board::cells(b.digit(d) & !(c0 | c1)) {
                if t.peers[c] & c0 != S::ZERO && t.peers[c] & c1 != S::ZERO {
                    victims |= S::bit(c);
                }
            }
            if victims != S::ZERO {
                let mut st = Step::new(Technique::SimpleColors);
                st.digits = vec![d];
                st.cells = board::cells(c0).collect();
                st.fins = board::cells(c1).collect();
                st.eliminations = board::cells(victims).map(|c| (c, d)).collect();
                st.name = Some("Simple Colors Trap".into());
                st.rating = 65;
                if !emit(st) {
                    return false;
                }
            }
        }
    }
    true
}

/// Multi-colours: for each digit, each ordered pair of clusters (A, B), type 2 first
/// (HoDoKu's order; the first pair with eliminations is emitted).
pub fn multi_colors<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    let t = b.tables();
    let n = t.n;
    // The cells that see some cell of `set`.
    let seen_by = |set: S| board::cells(set).fold(S::ZERO, |m, c| m | t.peers[c]);
    let names = |set: S| {
        board::cells(set)
            .map(|c| format!("r{}c{}", c / n + 1, c % n + 1))
            .collect::<Vec<_>>()
            .join(",")
    };
    for d in b.digit_range() {
        let clusters = clusters(b, d);
        let sees: Vec<(S, S)> = clusters
            .iter()
            .map(|&(x, y)| (seen_by(x), seen_by(y)))
            .collect();
        for i in 0..clusters.len() {
            for j in 0..clusters.len() {
                if i == j {
                    continue;
                }
                let ((a1, a2), (b1, b2)) = (clusters[i], clusters[j]);
                let ((sa1, sa2), (sb1, sb2)) = (sees[i], sees[j]);
                let mut false_colours: S = S::ZERO;
                for (a, sa) in [(a1, sa1), (a2, sa2)] {
                    if sa & b1 != S::ZERO && sa & b2 != S::ZERO {
                        false_colours |= a;
                    }
                }
                let mut victims: S = S::ZERO;
                let mut why = String::new();
                let kind;
                if false_colours != S::ZERO {
                    kind = 2;
                    victims = false_colours;
                    why = format!(
                        "{} see both colours of the second cluster, one of which is true, so they are false.",
                        names(false_colours)
                    );
                } else {
                    kind = 1;
                    for (x, sx, y, p, sp, q, sq) in [
                        (a1, sa1, b1, a2, sa2, b2, sb2),
                        (a1, sa1, b2, a2, sa2, b1, sb1),
                        (a2, sa2, b1, a1, sa1, b2, sb2),
                        (a2, sa2, b2, a1, sa1, b1, sb1),
                    ] {
                        let more = sp & sq & b.digit(d) & !(p | q);
                        if sx & y != S::ZERO && more & !victims != S::ZERO {
                            victims |= more;
                            if !why.is_empty() {
                                why.push(' ');
                            }
                            why.push_str(&format!(
                                "A cell of {} sees one of {}, so those colours are not both \
                                 true: {} or {} is.",
                                names(x),
                                names(y),
                                names(p),
                                names(q)
                            ));
                        }
                    }
                }
                if victims == S::ZERO {
                    continue;
                }
                let mut st = Step::new(Technique::MultiColors);
                st.digits = vec![d];
                st.cells = board::cells(a1 | a2 | b1 | b2).collect();
                st.eliminations = board::cells(victims).map(|c| (c, d)).collect();
                st.name = Some(format!("Multi Colors {kind}"));
                st.rating = 66;
                let mark = crate::symbols::Digits::mark(d);
                st.detail = vec![
                    format!(
                        "Colours of {mark}: {} / {} and {} / {} (in each cluster one colour is true).",
                        names(a1),
                        names(a2),
                        names(b1),
                        names(b2)
                    ),
                    why,
                ];
                if !emit(st) {
                    return false;
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{SAMPLES, check_sound, state};

    #[test]
    fn colors_are_sound_on_samples() {
        for p in SAMPLES {
            let b = Board::from_state(&state(p));
            simple_colors(&b, &mut |st| {
                check_sound(p, &st);
                true
            });
            multi_colors(&b, &mut |st| {
                check_sound(p, &st);
                true
            });
        }
    }
}
