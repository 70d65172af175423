// Subdivisions from OpenStreetMap's 2020 outlines (data pack osm-admin-2020), chosen per country by
// build-data/policy/subdivision-source.ts: today's structures in Kenya, Morocco, DR Congo, Cyprus
// and Norway, towns the ~1 km Natural Earth outlines put in the neighbour, and units OSM leaves
// out. Places are named, and expected codes are looked up by their ISO name, so a renumbered code
// cannot pass by accident.

import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readPolicy } from '../../build-data/policy/policy.js';
import { PACKS } from '../../build-data/sources/data-packs.js';
import { OSM_ADMIN_SOURCE } from '../../build-data/sources/osm-admin.js';
import {
  boundingBox,
  datasetInfo,
  isInSubdivision,
  subdivisionFromGps,
  subdivisions,
  tryCountryFromGps,
  trySubdivisionFromGps,
} from '../../src/index.js';
import { packSource, skipWithoutPack } from '../support/data-packs.js';

const source = packSource(OSM_ADMIN_SOURCE);
const all = subdivisions();
const nameOf = (code: string) => all.find((s) => s.code === code)?.name;
const inCountry = (a2: string) => all.filter((s) => s.country === a2);

/** The answer at a place, with its ISO name, so a failure says what was answered. */
const at = (lat: number, lon: number) => {
  const code = subdivisionFromGps(lat, lon);
  return `${code} ${nameOf(code)}`;
};

describe.skipIf(skipWithoutPack(source, PACKS.osmAdmin.file, 'OSM subdivision'))('OSM subdivisions (data pack)', () => {
  it('is a dataset source with its date, licence, attribution and the checked sha256', () => {
    expect(source).toMatchObject({
      licence: 'ODbL-1.0',
      attribution: '© OpenStreetMap contributors',
      sha256: PACKS.osmAdmin.sha256,
    });
  });

  it('Kenya answers its 47 counties (2013), not the former provinces', () => {
    const counties = inCountry('KE').filter((s) => /^KE-\d\d$/.test(s.code));
    expect(counties).toHaveLength(47);
    expect(counties.every((s) => s.covered)).toBe(true);
    expect(at(-1.2864, 36.8172)).toMatch(/^KE-\d\d Nairobi/);
    expect(at(-4.0435, 39.6682)).toMatch(/^KE-\d\d Mombasa/);
    expect(at(-0.0917, 34.768)).toMatch(/^KE-\d\d Kisumu/);
    expect(at(0.5143, 35.2698)).toMatch(/^KE-\d\d Uasin Gishu/);
  });

  it('Morocco answers its 2015 regions, and prefectures where OSM draws them', () => {
    const regions = inCountry('MA').filter((s) => /^MA-\d\d$/.test(s.code));
    expect(regions).toHaveLength(12);
    expect(regions.every((s) => s.covered)).toBe(true);
    const region = (name: RegExp) => regions.find((s) => name.test(s.name))!.code;
    expect(isInSubdivision(region(/^Rabat-Salé-Kénitra/), 34.0209, -6.8416)).toBe(true);
    expect(isInSubdivision(region(/^Casablanca-Settat/), 33.5731, -7.5898)).toBe(true);
    expect(isInSubdivision(region(/^Marrakech-Safi/), 31.6295, -7.9811)).toBe(true);
    expect(isInSubdivision(region(/^Fès-Meknès/), 34.0331, -5.0003)).toBe(true);
    expect(isInSubdivision(region(/^Tanger-Tétouan/), 35.7595, -5.834)).toBe(true);
  });

  it('DR Congo answers its 26 provinces (2015), Équateur and Mai-Ndombe from what Natural Earth leaves', () => {
    const provinces = inCountry('CD');
    expect(provinces.filter((s) => s.covered)).toHaveLength(26);
    expect(at(0.0487, 18.2603)).toBe('CD-EQ Équateur'); // Mbandaka
    expect(at(-1.95, 18.27)).toMatch(/^CD-MN Ma/); // Inongo
    expect(at(-4.3217, 15.3125)).toMatch(/^CD-KN Kinshasa/);
    expect(at(-11.6609, 27.4794)).toMatch(/^CD-HK Haut-Katanga/); // Lubumbashi
    expect(at(-5.0389, 18.8162)).toMatch(/^CD-KL Kwilu/); // Kikwit
    expect(at(0.5167, 25.1911)).toMatch(/^CD-TO Tshopo/); // Kisangani
  });

  it('units OSM 2020 leaves out answer from Natural Earth: Beja, the Métropole de Lyon, Jaffna, Kilinochchi', () => {
    for (const code of ['PT-02', 'FR-69M', 'LK-41', 'LK-42'])
      expect(all.find((s) => s.code === code)?.covered).toBe(true);
    expect(at(38.0151, -7.8632)).toBe('PT-02 Beja'); // Beja
    expect(at(37.597, -8.64)).toBe('PT-02 Beja'); // Odemira, 20 km from Setúbal's outline
    expect(at(37.9443, -7.5977)).toBe('PT-02 Beja'); // Serpa
    expect(at(38.5714, -7.9135)).toMatch(/^PT-07 Évora/); // OSM's outline still answers beside it
    expect(at(45.764, 4.8357)).toBe('FR-69M Métropole de Lyon'); // Lyon
    expect(at(45.7719, 4.8902)).toBe('FR-69M Métropole de Lyon'); // Villeurbanne (was Ain, FR-01)
    expect(at(45.9899, 4.7189)).toBe('FR-69 Rhône'); // Villefranche-sur-Saône: the department around it
    expect(isInSubdivision('FR-ARA', 45.764, 4.8357)).toBe(true);
    expect(at(9.6615, 80.0255)).toMatch(/^LK-41 /); // Jaffna (no subdivision before)
    expect(at(9.3803, 80.377)).toMatch(/^LK-42 /); // Kilinochchi (was Mullaitivu, LK-45)
  });

  it("Palestine's governorates no source draws answer no subdivision, not a neighbour's", () => {
    // OSM 2020 has 14 of the 16; the gap fill's reach in PS is 1 km (policy.json gapKm).
    expect(datasetInfo().subdivisionGapKmByCountry).toEqual({ PSE: 1 });
    for (const code of ['PS-BTH', 'PS-JEM']) expect(inCountry('PS').find((s) => s.code === code)?.covered).toBe(false);
    for (const [lat, lon] of [
      [31.7054, 35.2024], // Bethlehem
      [31.7767, 35.2345], // the Old City of Jerusalem
      [31.762, 35.262], // Abu Dis
    ]) {
      expect(tryCountryFromGps(lat, lon)).toBe('PSE');
      expect(trySubdivisionFromGps(lat, lon)).toBeNull();
    }
    expect(at(31.9038, 35.2034)).toMatch(/^PS-RBH /); // Ramallah
    expect(at(31.5326, 35.0998)).toMatch(/^PS-HBN /); // Hebron
  });

  it("land whose 2020 outline has no current code answers no subdivision, not a neighbour's", () => {
    for (const [lat, lon, country] of [
      [18.0858, -15.9785, 'MRT'], // Nouakchott, split in 2014 (Trarza is 10 km away)
      [43.3035, 77.2409, 'KAZ'], // Talghar, in Almaty Region, which lost Jetisu in 2022
      [50.7562, 78.5419, 'KAZ'], // Kurchatov, in Abai (2022)
    ] as const) {
      expect(tryCountryFromGps(lat, lon)).toBe(country);
      expect(trySubdivisionFromGps(lat, lon)).toBeNull();
    }
    expect(at(35.1778, 45.9861)).toMatch(/^IQ-SU /); // Halabja, which ISO still counts in As Sulaymaniyah
  });

  it("Norway's counties of 2019 in OSM 2020 answer the county they merged into, and Oslo its own land", () => {
    // Natural Earth's Oslo took in Bærum and Asker (osm-remap.json brings OSM's old codes to 2020's).
    expect(at(59.8907, 10.5277)).toBe('NO-30 Viken'); // Sandvika, Bærum
    expect(at(59.8333, 10.4372)).toBe('NO-30 Viken'); // Asker
    expect(at(59.9127, 10.7461)).toBe('NO-03 Oslo'); // Oslo centre
    expect(at(63.0555, 9.2115)).toBe('NO-50 Trøndelag'); // Rindal, moved from Møre og Romsdal in 2019
    expect(at(59.6044, 5.808)).toBe('NO-11 Rogaland'); // Ølen, moved from Hordaland in 2002
  });

  it("answers a county or province, not the region drawn with the county's very polygon", () => {
    // At equal area the deeper code ranks first (build-data/policy/ranking.ts areaOrder).
    expect(at(49.9145, -6.3139)).toBe('GB-IOS Isles of Scilly'); // St Mary's (was GB-ENG)
    expect(at(50.7989, -1.0912)).toBe('GB-POR Portsmouth'); // Portsea Island
    expect(at(51.4408, 0.7596)).toBe('GB-KEN Kent'); // Sheerness, Isle of Sheppey
    expect(at(8.4859, 123.8048)).toBe('PH-MSC Misamis Occidental'); // Oroquieta (was PH-10)
    expect(at(6.0517, 121.0021)).toBe('PH-SLU Sulu'); // Jolo (was PH-14)
    expect(isInSubdivision('GB-IOS', 49.9145, -6.3139)).toBe(true);
    // Off the outlines, where the nearest shore answers, both draw the same shore: the same rule.
    expect(at(4.6612, 119.3965)).toMatch(/^PH-TAW /); // Sitangkai, on stilts (was PH-14)
    expect(at(8.5333, 123.1)).toMatch(/^PH-ZAN /); // Manukan (was PH-09)
    expect(at(8.1144, 123.8971)).toMatch(/^PH-LAN /); // Kolambugan
  });

  it('Davao City answers Davao Region: the children a stale ISO link puts in it do not drop it', () => {
    // ISO still lists Sarangani and South Cotabato in Davao Region (PH-11), OSM draws them in
    // Soccsksargen; counted as its children, they dropped PH-11 and Davao City answered Davao del Norte.
    expect(at(7.0731, 125.6128)).toBe('PH-11 Davao'); // Davao City
    expect(at(7.1331, 125.3797)).toBe('PH-11 Davao'); // Tamayong, Davao City (was PH-12)
    expect(at(7.4479, 125.8078)).toMatch(/^PH-DAV /); // Tagum, Davao del Norte
  });

  it("Algeria: Algiers' 1997 limits from OSM, and 2019 wilayas from what Natural Earth's older ones leave", () => {
    expect(at(36.7488, 3.1918)).toMatch(/^DZ-16 /); // Bordj El Kiffan (was DZ-35 Boumerdès)
    expect(at(36.768, 2.959)).toMatch(/^DZ-16 /); // Cheraga (was DZ-42 Tipaza)
    expect(at(33.1053, 6.058)).toMatch(/^DZ-55 /); // Touggourt (was DZ-30 Ouargla)
    expect(at(30.5828, 2.8797)).toMatch(/^DZ-58 /); // El Meniaa (was DZ-47 Ghardaïa)
    expect(at(31.9493, 5.325)).toMatch(/^DZ-30 /); // Ouargla
    expect(at(27.1935, 2.4607)).toMatch(/^DZ-53 /); // In Salah
    // Older Ouargla's and Tamanrasset's land far from Touggourt and In Salah, which OSM's 2020
    // outlines leave out (policy.json osmFill `within`), answers neither.
    for (const [lat, lon] of [
      [29.0, 5.2],
      [28.7, 5.0],
      [29.5, 5.5],
      [23.5, 9.0],
      [23.8, 10.5],
      [23.2, 11.0],
    ])
      expect(['DZ-53', 'DZ-55']).not.toContain(trySubdivisionFromGps(lat, lon));
    expect(trySubdivisionFromGps(29.0, 5.2)).toBeNull();
    // Timimoun (2019, from Adrar with Bordj Badji Mokhtar): no outline tells the two apart.
    expect(tryCountryFromGps(29.2639, 0.231)).toBe('DZA');
    expect(trySubdivisionFromGps(29.2639, 0.231)).toBeNull();
  });

  it("Azerbaijan from OSM, and Natural Earth's districts where OSM draws Karabakh's 2020 lines", () => {
    expect(at(40.4481, 49.755)).toMatch(/^AZ-ABS /); // Khirdalan (Natural Earth's Baku held it)
    expect(at(40.764, 47.0595)).toMatch(/^AZ-MI /); // Mingachevir
    expect(at(41.4275, 48.4302)).toMatch(/^AZ-QUS /); // Qusar
    // OSM tags the Nagorno-Karabakh Republic's Askeran region AZ-XCI; its outline holds Ağdam.
    expect(at(39.991, 46.9274)).toMatch(/^AZ-AGM /); // Ağdam
    expect(at(39.9391, 46.8316)).toMatch(/^AZ-XCI /); // Askeran, Xocalı district
    expect(at(39.7601, 46.7499)).toMatch(/^AZ-SUS /); // Şuşa
    expect(at(39.8177, 46.7528)).toMatch(/^AZ-XA /); // Xankəndi
    expect(at(39.5988, 46.5505)).toMatch(/^AZ-LAC /); // Laçın, which OSM 2020 does not draw
    expect(at(40.1098, 46.0445)).toMatch(/^AZ-KAL /); // Kəlbəcər
  });

  it("North Macedonia from OSM, Skopje's municipalities from Natural Earth", () => {
    expect(at(41.9221, 21.5348)).toMatch(/^MK-813 /); // Studeničani (Natural Earth: Aerodrom)
    expect(at(41.9674, 20.9808)).toMatch(/^MK-602 /); // Brvenica (Natural Earth: Tetovo)
    expect(at(41.9389, 21.615)).toMatch(/^MK-810 /); // Petrovec (Natural Earth: Ilinden)
    expect(at(41.9954, 21.4268)).toMatch(/^MK-8\d\d /); // Skopje, one of its ten
    // Skopje as OSM draws it, beyond Natural Earth's ten: no code rather than a neighbour's.
    expect(tryCountryFromGps(42.04, 21.425)).toBe('MKD');
    expect(trySubdivisionFromGps(42.04, 21.425)).toBeNull(); // Šuto Orizare (was Čučer-Sandevo)
  });

  it("Ghana's regions of 2019: OSM's reduced four, and Natural Earth's older ones beyond them", () => {
    expect(at(7.3399, -2.3268)).toMatch(/^GH-BO /); // Sunyani (was Brong-Ahafo, GH-BA)
    expect(at(7.5905, -1.9395)).toMatch(/^GH-BE /); // Techiman
    expect(at(6.8036, -2.5172)).toMatch(/^GH-AF /); // Goaso
    expect(at(9.083, -1.8188)).toMatch(/^GH-SV /); // Damongo
    expect(at(10.5273, -0.3698)).toMatch(/^GH-NE /); // Nalerigu
    expect(at(8.0662, 0.1795)).toMatch(/^GH-OT /); // Dambai
    expect(at(6.2058, -2.4894)).toMatch(/^GH-WN /); // Sefwi Wiawso
    expect(at(9.4008, -0.8393)).toMatch(/^GH-NP /); // Tamale
  });

  it("a fill kept to a box answers in one piece, not in slivers along other units' borders", () => {
    // Natural Earth's older unit reaches ~1 km past OSM's outlines of the units around it; boxed
    // (policy.json osmFill `within`) so those slivers answer the nearest unit, not one 100 km off.
    const { osmFill = {} } = readPolicy(join(import.meta.dirname, '..', '..', 'build-data', 'policy'));
    const boxed = new Set(
      Object.values(osmFill)
        .flatMap((table) => Object.values(table).flat())
        .flatMap((rule) => (typeof rule === 'string' ? [] : [rule.code])),
    );
    expect(boxed.size).toBeGreaterThanOrEqual(10);
    for (const code of boxed) expect([code, strayKm2(code)]).toEqual([code, 0]);
    expect(at(-2.26, 20.9)).toMatch(/^CD-TU /); // Tshuapa's edge, 0.3 km away (was Équateur)
    expect(at(8.42, -2.32)).toMatch(/^GH-BO /); // Bono's edge by the Black Volta (was Bono East)
  });

  it("Afghanistan's Paktia and Paktika, whose codes Natural Earth swaps", () => {
    expect(at(33.5975, 69.2272)).toMatch(/^AF-PIA /); // Gardez, Paktia's capital
    expect(at(32.847, 68.446)).toMatch(/^AF-PKA /); // Zarghun Shahr, Paktika
  });

  it('Cyprus answers all six districts, Keryneia (CY-06) included', () => {
    expect(inCountry('CY').every((s) => s.covered)).toBe(true);
    expect(at(35.3364, 33.3182)).toBe('CY-06 Keryneia'); // Kyrenia
    expect(at(35.1856, 33.3823)).toBe('CY-01 Lefkosia'); // Nicosia
    expect(at(34.6786, 33.0413)).toBe('CY-02 Lemesos'); // Limassol
  });

  it('towns near admin-1 lines answer their own subdivision', () => {
    expect(at(-25.3468, -57.6065)).toBe('PY-11 Central'); // Lambaré, beside Asunción
    expect(at(55.931, 37.545)).toMatch(/^RU-MOW /); // Severny district, Moscow's northern edge
    expect(at(55.9, 37.44)).toMatch(/^RU-MOS /); // Khimki, over Moscow's line
  });
});

/**
 * Area (km², 0.01° grid over the code's box) of every piece where `code` answers but its largest,
 * counting pieces of 3 or more grid cells (a single cell is the grid's luck at a corner).
 */
function strayKm2(code: string): number {
  const [w, s, e, n] = boundingBox(code)!;
  const step = 0.01;
  const nx = Math.ceil((e - w) / step) + 1;
  const ny = Math.ceil((n - s) / step) + 1;
  const label = new Int32Array(nx * ny).fill(-1); // -2: not this code
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++)
      if (trySubdivisionFromGps(Math.min(n, s + j * step), Math.min(e, w + i * step)) !== code) label[j * nx + i] = -2;
  const pieces: { cells: number; km2: number }[] = [];
  for (let k = 0; k < label.length; k++) {
    if (label[k] !== -1) continue;
    const piece = { cells: 0, km2: 0 };
    const stack = [k];
    label[k] = pieces.length;
    while (stack.length) {
      const q = stack.pop()!;
      const i = q % nx;
      const j = (q - i) / nx;
      piece.cells++;
      piece.km2 += (step * 111.2) ** 2 * Math.cos(((s + j * step) * Math.PI) / 180);
      for (let dj = -1; dj <= 1; dj++)
        for (let di = -1; di <= 1; di++) {
          const a = i + di;
          const b = j + dj;
          if (a >= 0 && b >= 0 && a < nx && b < ny && label[b * nx + a] === -1) {
            label[b * nx + a] = pieces.length;
            stack.push(b * nx + a);
          }
        }
    }
    pieces.push(piece);
  }
  pieces.sort((a, b) => b.cells - a.cells);
  return Math.round(pieces.slice(1).reduce((t, p) => t + (p.cells >= 3 ? p.km2 : 0), 0));
}
