/**
 * What a refused delete says is below the sensor ("1 actuator and 288 measurements"), from the
 * service's 409 detail ("Sensor 3 still has …; delete them first, or add ?cascade=true …"). The
 * whole detail when it reads otherwise.
 */
export function dependentsOf(detail: string): string {
  return /still has (.+?);/.exec(detail)?.[1] ?? detail;
}
