//! Permutations shared by the engines, the counters and the canonical forms, and the
//! union-find the counters sort symmetric things into orbits with.

/// The six permutations of three things in lexicographic order: `THREE[p][i]` is where
/// item `i` goes (a row of a band, a column of a stack) under permutation `p`.
pub(crate) const THREE: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The next permutation in lexicographic order; false (and the first one) after the last.
pub(crate) fn next_permutation(p: &mut [usize]) -> bool {
    let Some(i) = p.windows(2).rposition(|w| w[0] < w[1]) else {
        p.reverse();
        return false;
    };
    let j = p
        .iter()
        .rposition(|&x| x > p[i])
        .expect("p[i + 1] is larger");
    p.swap(i, j);
    p[i + 1..].reverse();
    true
}

/// Every permutation of `0..k`, in lexicographic order (the identity first).
pub(crate) fn all_permutations(k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut p: Vec<usize> = (0..k).collect();
    loop {
        out.push(p.clone());
        if !next_permutation(&mut p) {
            return out;
        }
    }
}

/// The representative of `i`'s set in a union-find forest (halving paths on the way).
pub(crate) fn root(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

/// Joins the sets of `a` and `b`; the smallest element stays each set's representative.
pub(crate) fn join(parent: &mut [usize], a: usize, b: usize) {
    let (a, b) = (root(parent, a), root(parent, b));
    if a != b {
        parent[a.max(b)] = a.min(b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_run_through_all_n_factorial() {
        let mut p: Vec<usize> = (0..5).collect();
        let mut seen = std::collections::HashSet::new();
        loop {
            seen.insert(p.clone());
            if !next_permutation(&mut p) {
                break;
            }
        }
        assert_eq!(seen.len(), 120);
        assert_eq!(p, vec![0, 1, 2, 3, 4]);
        let all = all_permutations(5);
        assert_eq!(all.len(), 120);
        assert!(all.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn union_find_keeps_the_smallest_representative() {
        let mut parent: Vec<usize> = (0..6).collect();
        join(&mut parent, 4, 2);
        join(&mut parent, 5, 4);
        join(&mut parent, 1, 3);
        let roots: Vec<usize> = (0..6).map(|i| root(&mut parent, i)).collect();
        assert_eq!(roots, vec![0, 1, 2, 1, 2, 2]);
    }

    #[test]
    fn three_lists_the_permutations_of_three_in_order() {
        let mut p = vec![0, 1, 2];
        for perm in THREE {
            assert_eq!(perm.map(usize::from).to_vec(), p);
            next_permutation(&mut p);
        }
    }
}
