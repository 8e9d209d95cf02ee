/**
 * The demo diary: appointments booked through the real booking code, so the seed obeys the same
 * rules as an integrator. Upcoming ones take free slots from the availability search; past ones sit
 * in rostered hours of the last fortnight and have arrived or been missed.
 */
import { and, asc, eq } from 'drizzle-orm';
import { appointmentTypes, locations, practitioners } from '../../db/schema';
import { moveAppointment } from '../domain/appointments/lifecycle';
import { bookAppointment } from '../domain/appointments/write';
import { findAvailability } from '../domain/scheduling/availability';
import { addDays, clockFor, weekday } from '../values/wall-time';
import type { WriteContext } from '../domain/write-context';

export async function seedAppointments(w: WriteContext, patientIds: number[]): Promise<void> {
  const db = w.db.db;
  const acc = w.account.id;
  const ids = async (q: PromiseLike<{ id: number }[]>) => (await q).map((r) => r.id);
  const [clinic, secondSite] = await ids(
    db.select({ id: locations.id }).from(locations).where(eq(locations.account_id, acc)).orderBy(asc(locations.id)),
  );
  const types = await db
    .select({ id: appointmentTypes.id, name: appointmentTypes.name })
    .from(appointmentTypes)
    .where(eq(appointmentTypes.account_id, acc));
  const typeId = (name: string) => types.find((t) => t.name === name)!.id;
  const [amelia, , priya, tom] = await ids(
    db
      .select({ id: practitioners.id })
      .from(practitioners)
      .where(and(eq(practitioners.account_id, acc)))
      .orderBy(asc(practitioners.id)),
  );
  let next = 0;
  const patient = () => patientIds[next++ % patientIds.length];

  // Upcoming: every fifth free slot of a few diaries over the next fortnight.
  const clock = clockFor(w.account.timezone);
  const from = addDays(clock.today(), 1);
  const upcoming = async (
    location_id: number,
    appointment_type_id: number,
    practitioner_id: number,
    every: number,
    count: number,
  ) => {
    const { data } = await findAvailability(db, w.account, {
      location_id,
      appointment_type_id,
      practitioner_id,
      from,
      to: addDays(from, 13),
      visibility: 'all',
    });
    const booked = [];
    for (const slot of data.filter((_, i) => i % every === 0).slice(0, count)) {
      booked.push(
        await bookAppointment(w, {
          patient_id: patient(),
          practitioner_id,
          location_id,
          appointment_type_id,
          starts_at: slot.starts_at,
          resource_id: slot.resource_id,
        }),
      );
    }
    return booked;
  };
  const followUps = await upcoming(clinic, typeId('Follow-up'), amelia, 5, 8);
  await upcoming(clinic, typeId('Initial Assessment'), amelia, 7, 3);
  await upcoming(clinic, typeId('Sports Massage'), tom, 4, 4);
  // A pilates class with three of its eight places taken.
  const [pilates] = await upcoming(secondSite, typeId('Clinical Pilates Class'), priya, 1, 1);
  for (let i = 0; i < 2; i++) {
    await bookAppointment(w, {
      patient_id: patient(),
      practitioner_id: priya,
      location_id: secondSite,
      appointment_type_id: typeId('Clinical Pilates Class'),
      starts_at: pilates.starts_at as string,
      group_master_id: pilates.id as number,
    });
  }
  await moveAppointment(w, followUps[2].id as number, 'cancel', 'Patient is away that week');

  // The last fortnight: Amelia's Monday to Wednesday mornings at the clinic.
  for (let d = addDays(clock.today(), -14); d < clock.today(); d = addDays(d, 1)) {
    if (![1, 2, 3].includes(weekday(d))) continue;
    for (const time of ['09:00', '10:00', '11:00']) {
      const a = await bookAppointment(w, {
        patient_id: patient(),
        practitioner_id: amelia,
        location_id: clinic,
        appointment_type_id: typeId('Follow-up'),
        starts_at: `${d}T${time}:00`,
      });
      await moveAppointment(w, a.id as number, next % 7 === 0 ? 'miss' : 'arrive');
    }
  }
}
