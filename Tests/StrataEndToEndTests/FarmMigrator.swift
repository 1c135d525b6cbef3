import Strata

/// The app's custom step of `Models/Farm`: V3 weighs cows in grams, names them in capitals, and
/// leaves ghosts behind.
enum FarmMigrator: FarmMigrations {
    static func migrateCow(from old: FarmV2.CowView) throws -> FarmV3.CowValues? {
        guard old.name != "Ghost" else { return nil }
        return FarmV3.CowValues(name: old.name.uppercased(), grams: Int64((old.weight * 1_000).rounded()), born: old.born)
    }
}
